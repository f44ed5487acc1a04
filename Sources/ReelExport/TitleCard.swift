import Foundation
import ReelCompose
import ReelCore
import ReelMedia

/// A weekly vlog's day card: on a plain dark background, centred, the date and weekday
/// (large), the day's study time, and the session titles (up to six), drawn with
/// ``CaptionRenderer`` (Noto Sans CJK, so Japanese titles render).
struct TitleCard {
    let width: Int, height: Int
    private let renderer: CaptionRenderer
    /// The background, RGB.
    static let background: (UInt8, UInt8, UInt8) = (28, 36, 56)

    init(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        renderer = try CaptionRenderer()
    }

    /// The lines of `day`'s card: its date, its study time (every session that day), and the
    /// titles of the sessions `shown`.
    static func lines(for day: VlogWeek.Day, shown: [StudySession]) -> [(text: String, scale: Double)] {
        var lines: [(String, Double)] = [("\(day.date) \(day.date.weekdayAbbreviation)", 0.075),
                                         ("Study \(VlogWeek.studyText(seconds: day.activeSeconds))", 0.05)]
        let titles = shown.map { $0.title ?? "Untitled" }
        for title in titles.prefix(6) { lines.append((title, 0.035)) }
        if titles.count > 6 { lines.append(("+\(titles.count - 6) more", 0.035)) }
        return lines
    }

    /// The card for `day` (listing the sessions `shown`) as a new picture.
    func picture(for day: VlogWeek.Day, shown: [StudySession], fitter: PictureFitter) throws -> VideoFrame {
        let picture = try fitter.blank(at: .zero)
        let matrix = ColorMatrix.forHeight(min(width, height))
        let (y, u, v) = matrix.yuv(red: Self.background.0, green: Self.background.1, blue: Self.background.2)
        let style = CaptionRenderer.Style(text: (255, 255, 255, 255), plate: (0, 0, 0, 0), paddingX: 0.2, paddingY: 0.15, cornerRadius: 0)
        let shortSide = Double(min(width, height))
        var overlays: [YUVOverlay] = []
        for line in Self.lines(for: day, shown: shown) {
            var size = max(8, Int((shortSide * line.scale).rounded()))
            var rendered = try renderer.render(line.text, pixelSize: size, style: style)
            while rendered.image.width > width * 9 / 10, size > 8 {
                size = max(8, size * 9 / 10)
                rendered = try renderer.render(line.text, pixelSize: size, style: style)
            }
            overlays.append(YUVOverlay(rendered.image, matrix: matrix))
        }
        let gap = Int(shortSide * 0.02)
        let total = overlays.reduce(0) { $0 + $1.height } + gap * (overlays.count - 1)
        try picture.withWritablePlanes { planes in
            for (index, value) in [y, u, v].enumerated() {
                planes[index].base.update(repeating: value, count: planes[index].stride * (index == 0 ? height : height / 2))
            }
            let view = YUVPicture(width: width, height: height, y: planes[0].base, yStride: planes[0].stride,
                                  u: planes[1].base, uStride: planes[1].stride, v: planes[2].base, vStride: planes[2].stride)
            var top = (height - total) / 2
            for overlay in overlays {
                overlay.blend(onto: view, x: (width - overlay.width) / 2, y: top)
                top += overlay.height + gap
            }
        }
        return picture
    }
}
