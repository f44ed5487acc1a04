import Foundation
import ReelCore
import ReelTestSupport
import ReelVision
import Testing

/// The cinematic renderer on synthetic grey pictures with known layers: white noise (all
/// detail, every frequency), a subject as a rectangle of the layer map.
///
/// A Gaussian of sigma s leaves white noise a standard deviation of 1 / (2·s·√π) of its own
/// (the kernel's energy, sum of its squared weights); the renderer stands for a disc of radius
/// r by a Gaussian of sigma r / 2, so noise behind a blur of radius r keeps 1 / (r·√π) of its
/// spread: the measure of "the background's detail reduced by the amount the aperture says".
@Suite("Cinematic renderer: blur by depth and aperture, the subject kept, no halo")
struct BokehRendererTests {
    static let width = 480, height = 272
    static let cells = LayerMap.size(forWidth: width, height: height)
    static let wide = try! Aperture(fNumber: 2)

    static func noise(seed: UInt64, around level: Int = 128, spread: Int = 40) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<width * height).map { _ in UInt8(level - spread + Int(generator.next() % UInt64(2 * spread + 1))) }
    }

    /// A map with a subject at `depth` dioptres covering the cells of the picture's middle
    /// third (columns and rows), fully.
    static func subjectMap(depth: Double) -> LayerMap {
        var map = LayerMap.empty(width: cells.width, height: cells.height)
        for y in cells.height / 3..<2 * cells.height / 3 {
            for x in cells.width / 3..<2 * cells.width / 3 {
                map.matte[y * cells.width + x] = 255
            }
        }
        for i in map.depth.indices { map.depth[i] = LayerMap.code(depth) }
        return map
    }

    /// The subject's rectangle in pixels (the cells' edges).
    static var subjectRect: (x0: Int, x1: Int, y0: Int, y1: Int) {
        let sx = Double(width) / Double(cells.width), sy = Double(height) / Double(cells.height)
        return (Int(Double(cells.width / 3) * sx), Int(Double(2 * cells.width / 3) * sx),
                Int(Double(cells.height / 3) * sy), Int(Double(2 * cells.height / 3) * sy))
    }

    static func render(_ grey: [UInt8], map: LayerMap, focus: Double, aperture: Aperture = wide) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: grey.count)
        let renderer = try BokehRenderer()
        try grey.withUnsafeBytes { input in
            try out.withUnsafeMutableBytes { output in
                let picture = DetectorPicture(format: .gray8, base: input.baseAddress!, width: width, height: height, stride: width)
                try renderer.render(picture, layers: map, focus: focus, aperture: aperture,
                                    into: [.init(base: output.baseAddress!, stride: width)])
            }
        }
        return out
    }

    /// The standard deviation of `values` over the pixels `inside` says.
    static func spread(_ values: [UInt8], where inside: (Int, Int) -> Bool) -> Double {
        var sum = 0.0, squares = 0.0, count = 0.0
        for y in 0..<height {
            for x in 0..<width where inside(x, y) {
                let v = Double(values[y * width + x])
                sum += v
                squares += v * v
                count += 1
            }
        }
        let mean = sum / count
        return (squares / count - mean * mean).squareRoot()
    }

    static func mean(_ values: [UInt8], where inside: (Int, Int) -> Bool) -> Double {
        var sum = 0.0, count = 0.0
        for y in 0..<height { for x in 0..<width where inside(x, y) { sum += Double(values[y * width + x]); count += 1 } }
        return sum / count
    }

    /// What the aperture says is left of white noise's spread behind a blur of `radius`.
    static func expectedNoiseShare(radius: Double) -> Double { 1 / (radius * Double.pi.squareRoot()) }

    @Test("the background's detail is reduced as the aperture says, from 3 px to the cap (within 15 %)",
          arguments: [3.0, 6.0, 10.0, 14.4])
    func backgroundBlur(radius: Double) throws {
        let grey = Self.noise(seed: 11)
        let perDioptre = Self.wide.radiusPerDioptre(width: Self.width)
        #expect(abs(Aperture.maxRadius(width: Self.width) - 14.4) < 1e-9)
        let focus = LayeredDepth.backgroundDioptres + radius / perDioptre
        let out = try Self.render(grey, map: .empty(width: Self.cells.width, height: Self.cells.height), focus: focus)
        let margin = 40
        let interior = { (x: Int, y: Int) in x >= margin && y >= margin && x < Self.width - margin && y < Self.height - margin }
        let share = Self.spread(out, where: interior) / Self.spread(grey, where: interior)
        let expected = Self.expectedNoiseShare(radius: radius)
        #expect(abs(share / expected - 1) <= 0.15, "radius \(radius): \(share) of the noise left, the aperture says \(expected)")
    }

    @Test("a flat picture of odd size stays flat to its last row and column, the subject in focus or not",
          arguments: [(321, 181), (97, 55)])
    func flatOddSize(size: (width: Int, height: Int)) throws {
        let (width, height) = size
        let cells = LayerMap.size(forWidth: width, height: height)
        var map = LayerMap.empty(width: cells.width, height: cells.height)
        for y in cells.height / 3..<2 * cells.height / 3 { for x in cells.width / 3..<2 * cells.width / 3 { map.matte[y * cells.width + x] = 200 } }
        for y in 0..<cells.height { for x in 0..<cells.width / 2 { map.depth[y * cells.width + x] = LayerMap.code(3.0) } }
        let flat = [UInt8](repeating: 90, count: width * height)
        let renderer = try BokehRenderer()
        // Focus on the subject (the half-size background, at 321 wide), on the background, between.
        for focus in [3.0, LayeredDepth.backgroundDioptres, 1.0] {
            var out = [UInt8](repeating: 0, count: flat.count)
            try flat.withUnsafeBytes { input in
                try out.withUnsafeMutableBytes { output in
                    let picture = DetectorPicture(format: .gray8, base: input.baseAddress!, width: width, height: height, stride: width)
                    try renderer.render(picture, layers: map, focus: focus, aperture: Self.wide, into: [.init(base: output.baseAddress!, stride: width)])
                }
            }
            let off = out.indices.filter { out[$0] != 90 }
            #expect(off.count == 0, "focus \(focus), \(width)x\(height): \(off.count) pixels changed, the first at \(off.first.map { ($0 % width, $0 / width) } as Any)")
        }
    }

    @Test("focus on the subject: its detail kept exactly, the background blurred by the layers' difference")
    func subjectInFocus() throws {
        let grey = Self.noise(seed: 12)
        let map = Self.subjectMap(depth: 1.0)
        let out = try Self.render(grey, map: map, focus: 1.0)
        let r = Self.subjectRect, cell = Self.width / Self.cells.width
        var changed = 0
        for y in r.y0 + cell..<r.y1 - cell { for x in r.x0 + cell..<r.x1 - cell where out[y * Self.width + x] != grey[y * Self.width + x] { changed += 1 } }
        #expect(changed == 0, "\(changed) pixels of the subject in focus changed")
        let radius = Self.wide.blurRadius(dioptres: LayerMap.dioptres(map.background), focus: 1.0, width: Self.width)
        let away = { (x: Int, y: Int) in (y >= 30 && y < r.y0 - 30 || y >= r.y1 + 30 && y < Self.height - 30) && x >= 30 && x < Self.width - 30 }
        let share = Self.spread(out, where: away) / Self.spread(grey, where: away)
        #expect(abs(share / Self.expectedNoiseShare(radius: radius) - 1) <= 0.15, "background keeps \(share), radius \(radius)")
    }

    @Test("no halo: a bright subject in focus does not glow into the blurred background around it")
    func noHalo() throws {
        var grey = Self.noise(seed: 13, around: 60, spread: 6)
        let r = Self.subjectRect
        for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { grey[y * Self.width + x] = 230 } }
        let out = try Self.render(grey, map: Self.subjectMap(depth: 1.0), focus: 1.0)
        // The ring from 3 to 10 px outside the subject: beyond the matte's soft edge (2 px), within
        // the background blur's reach (radius 6.25, sigma 3.1): a plain blur would brighten it by ~10.
        let ring = { (x: Int, y: Int) in
            let inside = x >= r.x0 - 10 && x < r.x1 + 10 && y >= r.y0 - 10 && y < r.y1 + 10
            let near = x >= r.x0 - 3 && x < r.x1 + 3 && y >= r.y0 - 3 && y < r.y1 + 3
            return inside && !near
        }
        let background = Self.mean(out, where: ring)
        #expect(abs(background - 60) < 2, "the ring around the subject averages \(background), the background is 60")
    }

    @Test("focus on the background: the subject is blurred and its edge spreads over the background, the far background stays sharp")
    func backgroundInFocus() throws {
        var grey = Self.noise(seed: 14, around: 60, spread: 6)
        let r = Self.subjectRect
        for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { grey[y * Self.width + x] = 230 } }
        let out = try Self.render(grey, map: Self.subjectMap(depth: 1.0), focus: LayeredDepth.backgroundDioptres)
        let ring = { (x: Int, y: Int) in
            let inside = x >= r.x0 - 4 && x < r.x1 + 4 && y >= r.y0 - 4 && y < r.y1 + 4
            return inside && !(x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1)
        }
        #expect(Self.mean(out, where: ring) > 90, "the blurred subject does not spread beyond its edge")
        var far = 0
        for y in 0..<20 { for x in 0..<Self.width where out[y * Self.width + x] != grey[y * Self.width + x] { far += 1 } }
        #expect(far == 0, "\(far) background pixels in focus changed")
    }

    @Test("yuv420p: chroma is blurred with luma (half the radius on half-size planes); rendering in place gives the same picture")
    func yuv() throws {
        let luma = Self.noise(seed: 15)
        var generator = SplitMix64(seed: 16)
        let chromaCount = (Self.width / 2) * (Self.height / 2)
        let u = (0..<chromaCount).map { _ in UInt8(88 + Int(generator.next() % 81)) }, v = u.reversed().map { $0 }
        var frame = luma + u + v
        let focus = LayeredDepth.backgroundDioptres + 10 / Self.wide.radiusPerDioptre(width: Self.width)
        let map = LayerMap.empty(width: Self.cells.width, height: Self.cells.height)
        let renderer = try BokehRenderer()
        func planes(_ base: UnsafeRawPointer) -> DetectorPicture {
            let y = DetectorPicture.Plane(base: base, stride: Self.width)
            let cb = DetectorPicture.Plane(base: base + luma.count, stride: Self.width / 2)
            let cr = DetectorPicture.Plane(base: base + luma.count + chromaCount, stride: Self.width / 2)
            return DetectorPicture(yuv420p: (y: y, u: cb, v: cr), width: Self.width, height: Self.height)
        }
        var separate = [UInt8](repeating: 0, count: frame.count)
        try frame.withUnsafeBytes { input in
            try separate.withUnsafeMutableBytes { output in
                let o = output.baseAddress!
                try renderer.render(planes(input.baseAddress!), layers: map, focus: focus, aperture: Self.wide,
                                    into: [.init(base: o, stride: Self.width), .init(base: o + luma.count, stride: Self.width / 2),
                                           .init(base: o + luma.count + chromaCount, stride: Self.width / 2)])
            }
        }
        try frame.withUnsafeMutableBytes { bytes in
            let o = bytes.baseAddress!
            try renderer.render(planes(UnsafeRawPointer(o)), layers: map, focus: focus, aperture: Self.wide,
                                into: [.init(base: o, stride: Self.width), .init(base: o + luma.count, stride: Self.width / 2),
                                       .init(base: o + luma.count + chromaCount, stride: Self.width / 2)])
        }
        #expect(frame == separate)
        let grey = try Self.render(luma, map: map, focus: focus)
        #expect(Array(separate[0..<luma.count]) == grey, "luma is rendered as a grey picture is")
        // Chroma: radius 5 on its half-size plane.
        let cw = Self.width / 2, ch = Self.height / 2
        var sum = 0.0, squares = 0.0, count = 0.0, inSum = 0.0, inSquares = 0.0
        for y in 20..<ch - 20 {
            for x in 20..<cw - 20 {
                let after = Double(separate[luma.count + y * cw + x]), before = Double(u[y * cw + x])
                sum += after; squares += after * after; inSum += before; inSquares += before * before; count += 1
            }
        }
        let share = (squares / count - (sum / count) * (sum / count)).squareRoot() / (inSquares / count - (inSum / count) * (inSum / count)).squareRoot()
        #expect(abs(share / Self.expectedNoiseShare(radius: 5) - 1) <= 0.15, "chroma keeps \(share)")
    }

    @Test("bad input: an RGB picture, a missing output plane, a focal depth that is not a number")
    func badInput() throws {
        let renderer = try BokehRenderer()
        let map = LayerMap.empty(width: Self.cells.width, height: Self.cells.height)
        var pixels = [UInt8](repeating: 0, count: Self.width * Self.height * 3)
        try pixels.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            let rgb = DetectorPicture(format: .rgb24, base: base, width: Self.width, height: Self.height, stride: Self.width * 3)
            #expect(throws: BokehError.invalidInput("the renderer takes yuv420p or grey pictures, not rgb24")) {
                try renderer.render(rgb, layers: map, focus: 1, aperture: .standard, into: [.init(base: base, stride: Self.width * 3)])
            }
            let grey = DetectorPicture(format: .gray8, base: base, width: Self.width, height: Self.height, stride: Self.width)
            #expect(throws: BokehError.invalidInput("the output has 0 planes, the picture 1")) {
                try renderer.render(grey, layers: map, focus: 1, aperture: .standard, into: [])
            }
            #expect(throws: BokehError.invalidInput("the focal depth is not a number")) {
                try renderer.render(grey, layers: map, focus: .nan, aperture: .standard, into: [.init(base: base, stride: Self.width)])
            }
        }
    }
}
