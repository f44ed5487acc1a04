import ReelCore

/// The privacy mosaic of the export (docs/behaviour.md §1, Export compositor): pixellates the
/// picture under each face box through an elliptical soft-edged mask, in place, on all three
/// planes.
///
/// The rules, each a fixed decision:
/// - **Block size**: 3 % of the picture's long side, rounded to whole pixels, at least 2
///   (58 at 1920×1080, 38 at 1280×720). Blocks are square.
/// - **Grid**: grid lines cross at the box centre: the centre is a block *corner*, so the face
///   is split into four blocks around its middle and the grid is symmetric about the centre.
///   The crossing is the centre rounded to the nearest *even* luma pixel, so that with an even
///   block size every block boundary falls on a chroma sample boundary too (4:2:0).
/// - **Block colour**: the mean (rounded) of the block's pixels *inside the picture*: a block
///   cut by the picture's edge averages only what is inside (edges clamped, nothing dark from
///   outside). Means are taken from the picture as it was before any box of this call was
///   drawn, so overlapping boxes do not depend on their order.
/// - **Mask**: an ellipse inscribed in the box (at least one block across each way,
///   ``minimumBlocks``). With `r` the normalized radius of a pixel's
///   centre (1 on the ellipse), the mosaic's weight is 1 for `r ≤ 0.94`, 0 for `r ≥ 1`, and
///   falls *linearly* in between (`(1 − r) / 0.06`). Output = `w·mosaic + (1 − w)·original`,
///   in 1/256 steps: weight 1 writes the block mean exactly, weight 0 leaves the byte alone.
/// - **Chroma**: each chroma sample belongs to the block holding its top-left luma pixel
///   (`2cx`, `2cy`), its block mean averages the chroma samples of that block, and its mask
///   weight is taken at the centre of its 2×2 luma quad.
public struct MosaicCompositor: Sendable {
    /// Block size as a fraction of the picture's long side.
    public static let blockFraction = 0.03
    /// The least width and height of the ellipse, in blocks: a face smaller than a block (a
    /// 20 px face in 720p, where a block is 38 px) is covered at least one block wide and
    /// high. It was first 1.5, because a 20 px face showed at the edge of a
    /// 25 × 35 px ellipse when a detection missed it and the box stayed behind; once the closer
    /// look round small faces found them at every detection (crops of at least 256 px), one
    /// block left no face shown and covered 2.5× the faces of the small clip instead of 4.7×.
    public static let minimumBlocks = 1.0
    /// Normalized radius up to which the mosaic is opaque.
    public static let opaqueRadius = 0.94
    /// Normalized radius from which the original shows unchanged.
    public static let clearRadius = 1.0

    /// A compositor (it holds no state; one per export is fine, so is one per frame).
    public init() {}

    /// The block size for a `width` × `height` picture.
    public static func blockSize(width: Int, height: Int) -> Int {
        max(2, Int((Double(max(width, height)) * blockFraction).rounded()))
    }

    /// The mosaic's weight at normalized radius `r` (0…1).
    public static func maskWeight(normalizedRadius r: Double) -> Double {
        if r <= opaqueRadius { return 1 }
        if r >= clearRadius { return 0 }
        return (clearRadius - r) / (clearRadius - opaqueRadius)
    }

    /// Where one box's mosaic lands in a picture, in luma pixels.
    public struct Layout: Sendable, Equatable {
        /// The block size.
        public var blockSize: Int
        /// The luma pixel where grid lines cross: block boundaries are at `gridX + k·blockSize`
        /// and `gridY + k·blockSize` for every whole `k`.
        public var gridX: Int
        /// See ``gridX``.
        public var gridY: Int
        /// The ellipse's centre (the box centre), in luma pixel coordinates (pixel `i` spans
        /// `i…i+1`, its centre is `i + 0.5`).
        public var centreX: Double
        /// See ``centreX``.
        public var centreY: Double
        /// Half the box width (the ellipse's horizontal radius), in pixels.
        public var radiusX: Double
        /// Half the box height, in pixels.
        public var radiusY: Double

        /// The normalized radius of luma pixel (`x`, `y`)'s centre: 1 on the ellipse.
        public func normalizedRadius(x: Double, y: Double) -> Double {
            let dx = (x - centreX) / radiusX, dy = (y - centreY) / radiusY
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// The layout of `box` in a `width` × `height` picture; `nil` when the box is empty, not
    /// finite, or entirely outside the picture (nothing to draw).
    public static func layout(of box: NormalizedRect, width: Int, height: Int) -> Layout? {
        let w = Double(width), h = Double(height)
        let block = blockSize(width: width, height: height)
        // A box smaller than the blocks is drawn at least ``minimumBlocks`` blocks across.
        let least = minimumBlocks * Double(block) / 2
        let rx = max(box.width * w / 2, box.width > 0 ? least : 0), ry = max(box.height * h / 2, box.height > 0 ? least : 0)
        let cx = (box.x + box.width / 2) * w, cy = (box.y + box.height / 2) * h
        guard rx.isFinite, ry.isFinite, cx.isFinite, cy.isFinite, rx >= 0.5, ry >= 0.5 else { return nil }
        guard cx + rx > 0, cy + ry > 0, cx - rx < w, cy - ry < h else { return nil }
        // Clamp the crossing to a sane range so a box centred far outside cannot overflow.
        let gx = 2 * Int((min(max(cx, -w), 2 * w) / 2).rounded())
        let gy = 2 * Int((min(max(cy, -h), 2 * h) / 2).rounded())
        return Layout(blockSize: block, gridX: gx, gridY: gy,
                      centreX: cx, centreY: cy, radiusX: rx, radiusY: ry)
    }

    /// Draws the mosaic of every box in `boxes` (normalized to the picture, origin top-left)
    /// into `picture`. Boxes that are empty or outside the picture are skipped.
    public func apply(to picture: YUVPicture, boxes: [NormalizedRect]) {
        let layouts = boxes.compactMap { Self.layout(of: $0, width: picture.width, height: picture.height) }
        guard !layouts.isEmpty else { return }
        // All means first (from the untouched picture), then all blending.
        var plans: [PlanePlan] = []
        plans.reserveCapacity(layouts.count * 3)
        for layout in layouts {
            for index in 0..<3 {
                if let plan = PlanePlan(layout: layout, plane: picture.plane(index), scale: index == 0 ? 1 : 2) {
                    plans.append(plan)
                }
            }
        }
        for plan in plans { plan.blend() }
    }
}

/// One box on one plane: the region it touches, its block means, then the blend.
private struct PlanePlan {
    let plane: YUVPicture.Plane
    /// Luma pixels per plane pixel (1 for Y, 2 for 4:2:0 chroma).
    let scale: Int
    let layout: MosaicCompositor.Layout
    /// Plane rows and columns the ellipse can touch (inclusive).
    let row0: Int, row1: Int, col0: Int, col1: Int
    /// Block indices of the first row and column, and the table's width.
    let blockRow0: Int, blockCol0: Int, blockColumns: Int
    /// Block index (minus blockCol0) of every column col0…col1.
    let columnBlock: [Int32]
    /// Block means, row-major.
    let means: [UInt8]

    init?(layout: MosaicCompositor.Layout, plane: YUVPicture.Plane, scale: Int) {
        self.plane = plane
        self.scale = scale
        self.layout = layout
        let s = Double(scale)
        // Plane pixel p's centre in luma coordinates is p·s + s/2.
        row0 = max(0, Int(((layout.centreY - layout.radiusY) / s - 0.5).rounded(.down)))
        row1 = min(plane.height - 1, Int(((layout.centreY + layout.radiusY) / s - 0.5).rounded(.up)))
        col0 = max(0, Int(((layout.centreX - layout.radiusX) / s - 0.5).rounded(.down)))
        col1 = min(plane.width - 1, Int(((layout.centreX + layout.radiusX) / s - 0.5).rounded(.up)))
        guard row0 <= row1, col0 <= col1 else { return nil }
        let b = layout.blockSize
        func block(_ p: Int, grid: Int) -> Int { floorDivide(p * scale - grid, b) }
        blockRow0 = block(row0, grid: layout.gridY)
        blockCol0 = block(col0, grid: layout.gridX)
        let blockRows = block(row1, grid: layout.gridY) - blockRow0 + 1
        blockColumns = block(col1, grid: layout.gridX) - blockCol0 + 1
        let firstColumnBlock = blockCol0
        columnBlock = (col0...col1).map { Int32(block($0, grid: layout.gridX) - firstColumnBlock) }

        // First plane pixel of block k: the smallest p with p·s ≥ grid + k·b.
        func firstPixel(_ k: Int, grid: Int) -> Int { ceilDivide(grid + k * b, scale) }
        var means = [UInt8](repeating: 0, count: blockRows * blockColumns)
        let base = plane.base, stride = plane.stride
        for by in 0..<blockRows {
            let y0 = max(0, firstPixel(blockRow0 + by, grid: layout.gridY))
            let y1 = min(plane.height, firstPixel(blockRow0 + by + 1, grid: layout.gridY))
            for bx in 0..<blockColumns {
                let x0 = max(0, firstPixel(blockCol0 + bx, grid: layout.gridX))
                let x1 = min(plane.width, firstPixel(blockCol0 + bx + 1, grid: layout.gridX))
                guard y1 > y0, x1 > x0 else { continue }
                var sum = 0
                for y in y0..<y1 {
                    let row = base + y * stride
                    var rowSum: UInt32 = 0
                    for x in x0..<x1 { rowSum &+= UInt32(row[x]) }
                    sum += Int(rowSum)
                }
                let count = (y1 - y0) * (x1 - x0)
                means[by * blockColumns + bx] = UInt8((sum + count / 2) / count)
            }
        }
        self.means = means
    }

    func blend() {
        let s = Double(scale), half = s / 2
        let rx = layout.radiusX, ry = layout.radiusY, cx = layout.centreX, cy = layout.centreY
        let inner = MosaicCompositor.opaqueRadius
        let fringe = MosaicCompositor.clearRadius - MosaicCompositor.opaqueRadius
        let b = layout.blockSize
        means.withUnsafeBufferPointer { means in
            columnBlock.withUnsafeBufferPointer { columnBlock in
                for y in row0...row1 {
                    let dy = (Double(y) * s + half - cy) / ry
                    let dy2 = dy * dy
                    guard dy2 < 1 else { continue }
                    let blockRow = floorDivide(y * scale - layout.gridY, b) - blockRow0
                    let meanRow = means.baseAddress! + blockRow * blockColumns
                    let row = plane.base + y * plane.stride
                    // Columns whose centre can be inside the ellipse (a pixel of slack each side);
                    // inside the inner span the weight is exactly 1.
                    let outer = rx * (1 - dy2).squareRoot()
                    let from = max(col0, Int(((cx - outer) / s - half / s).rounded(.down)) - 1)
                    let to = min(col1, Int(((cx + outer) / s - half / s).rounded(.up)) + 1)
                    guard from <= to else { continue }
                    var innerFrom = to + 1, innerTo = to
                    let innerSquared = inner * inner - dy2
                    if innerSquared > 0 {
                        let span = rx * innerSquared.squareRoot() * (1 - 1e-9)
                        innerFrom = max(from, Int(((cx - span) / s - half / s).rounded(.up)))
                        innerTo = min(to, Int(((cx + span) / s - half / s).rounded(.down)))
                    }
                    var x = from
                    while x <= to {
                        if x == innerFrom && innerFrom <= innerTo {
                            for i in innerFrom...innerTo { row[i] = meanRow[Int(columnBlock[i - col0])] }
                            x = innerTo + 1
                            continue
                        }
                        let dx = (Double(x) * s + half - cx) / rx
                        let r = (dx * dx + dy2).squareRoot()
                        if r < MosaicCompositor.clearRadius {
                            let weight = r <= inner ? 256 : Int((256 * (MosaicCompositor.clearRadius - r) / fringe).rounded())
                            if weight > 0 {
                                let mosaic = Int(meanRow[Int(columnBlock[x - col0])])
                                let original = Int(row[x])
                                row[x] = UInt8(truncatingIfNeeded: (weight * mosaic + (256 - weight) * original + 128) >> 8)
                            }
                        }
                        x += 1
                    }
                }
            }
        }
    }
}

@inline(__always) private func floorDivide(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@inline(__always) private func ceilDivide(_ a: Int, _ b: Int) -> Int {
    -floorDivide(-a, b)
}
