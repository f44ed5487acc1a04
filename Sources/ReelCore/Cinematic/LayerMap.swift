/// The cinematic picture's layers at a low resolution: per cell, how much of it is a near
/// subject (the matte, 0…255) and that subject's depth; everything not covered is the
/// background. It is what the renderer blurs by and what a recording's sidecar keeps, so a
/// refocus afterwards renders from exactly the layers the recording had.
///
/// Depths are stored as codes of ``dioptreStep`` (0…255 is 0…6.375 D): the layered estimate
/// has no finer truth, and a byte per cell keeps the sidecar small.
public struct LayerMap: Sendable, Equatable {
    /// One code step, in dioptres.
    public static let dioptreStep = 1.0 / 40
    /// The map's size for a picture `width` × `height`: a quarter of its width, at most 480
    /// cells (the matte's edge is refined at this size; the renderer enlarges it), the same
    /// shape, both sides even (the matte is made from a yuv420p picture reduced to this size).
    public static func size(forWidth width: Int, height: Int) -> (width: Int, height: Int) {
        let across = max(2, min(480, width / 4) & ~1)
        let down = max(2, Int((Double(height) * Double(across) / Double(max(1, width)) / 2).rounded()) * 2)
        return (across, down)
    }

    /// Cells across.
    public let width: Int
    /// Cells down.
    public let height: Int
    /// `width * height` values, rows top to bottom: 255 where a near subject covers the cell,
    /// 0 where the background shows, between on a soft edge.
    public var matte: [UInt8]
    /// `width * height` depth codes of the near subject at each cell (where it has no matte:
    /// the subject whose zone it is in, so a blurred subject's edge can spread there; outside
    /// every zone: the background's).
    public var depth: [UInt8]
    /// The background's depth code.
    public var background: UInt8

    /// A map of the given cells.
    public init(width: Int, height: Int, matte: [UInt8], depth: [UInt8], background: UInt8) {
        precondition(width > 0 && height > 0 && matte.count == width * height && depth.count == width * height)
        self.width = width
        self.height = height
        self.matte = matte
        self.depth = depth
        self.background = background
    }

    /// Only background: nothing near (a picture without subjects).
    public static func empty(width: Int, height: Int, background: Double = LayeredDepth.backgroundDioptres) -> LayerMap {
        let code = Self.code(background)
        return LayerMap(width: width, height: height, matte: Array(repeating: 0, count: width * height),
                        depth: Array(repeating: code, count: width * height), background: code)
    }

    /// The code of `dioptres` (nearest step, within 0…255).
    public static func code(_ dioptres: Double) -> UInt8 {
        UInt8(max(0, min(255, (dioptres / dioptreStep).rounded())))
    }

    /// The dioptres of `code`.
    public static func dioptres(_ code: UInt8) -> Double { Double(code) * dioptreStep }

    /// The focal depth to render for `focal` while the focus follows a subject at `subject`
    /// dioptres: within half a step of it, exactly that subject's layer. Its cells carry the
    /// nearest step, and a focus between two steps would blur it by the rounding (a step is
    /// 0.8 px of blur radius at 1920 wide and f/2, more at larger widths).
    public static func focus(_ focal: Double, following subject: Double?) -> Double {
        guard let subject, abs(focal - subject) <= dioptreStep / 2 else { return focal }
        return dioptres(code(subject))
    }

    /// The depth at the cell holding the normalized point (`x`, `y`): the near subject's where
    /// the matte is at least one half, else the background's.
    public func dioptres(atX x: Double, y: Double) -> Double {
        let column = min(width - 1, max(0, Int(x * Double(width)))), row = min(height - 1, max(0, Int(y * Double(height))))
        let index = row * width + column
        return Self.dioptres(matte[index] >= 128 ? depth[index] : background)
    }
}

/// Which cells of the picture a subject's layer may take: a person's body hangs under the
/// face, a cat's head is round. The person-segmentation network sees people but does not say
/// which person a pixel is, and sees no cats; these zones say it.
public enum LayerZones {
    /// A face's zone: this many face widths across, centred on the face…
    public static let faceZoneWidths = 5.0
    /// …from this many face heights above the face's top (hair) to the picture's bottom.
    public static let faceZoneAbove = 1.0
    /// An upper body's zone: the box widened by this share of its width on each side, from a
    /// tenth of its height above it to the picture's bottom.
    public static let bodyZoneWiden = 0.25
    /// A cat's head: an ellipse around the face box, these shares of its width and height as
    /// radii (the ears stand above the box); solid to ``catSolid`` of the radius, then fading.
    public static let catRadii = (x: 0.65, y: 0.75), catSolid = 0.75

    /// The box that holds `subject`'s zone, normalized, clipped to the picture.
    public static func zone(of subject: CinematicSubject) -> NormalizedRect {
        let b = subject.bounds
        let zone: NormalizedRect = switch subject.kind {
        case .face:
            NormalizedRect(x: b.midX - faceZoneWidths / 2 * b.width, y: b.y - faceZoneAbove * b.height,
                           width: faceZoneWidths * b.width, height: 2)
        case .upperBody:
            NormalizedRect(x: b.x - bodyZoneWiden * b.width, y: b.y - 0.1 * b.height, width: b.width * (1 + 2 * bodyZoneWiden), height: 2)
        case .catFace:
            NormalizedRect(x: b.midX - catRadii.x * b.width, y: b.midY - catRadii.y * b.height,
                           width: 2 * catRadii.x * b.width, height: 2 * catRadii.y * b.height)
        }
        let x0 = max(0, zone.x), y0 = max(0, zone.y)
        let x1 = min(1, zone.x + zone.width), y1 = min(1, zone.y + zone.height)
        return NormalizedRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The layers of a picture with `subjects`, given the person network's matte of it at the
    /// map's size (`personMatte`, `width * height` values; nil when no network ran):
    /// - each cell belongs to the subject whose zone holds it and whose box is nearest sideways,
    ///   in the box's widths (two people side by side split between their faces);
    /// - a person's cell (face, upper body) takes the network's matte there; a cat's cell its
    ///   head's ellipse; the cell's depth is the subject's layer (``LayeredDepth``);
    /// - a person's layer reaches beyond its zone where the network's matte (at least one half)
    ///   joins it, out to ``reach(of:)``: arms held out, a wide coat, a thing held against the body;
    /// - other cells are background: a person the detectors did not see stays in the background
    ///   (the network's matte alone says nothing about depth);
    /// - `matteShifts` (by subject id) say how far a subject moved since the matte was made
    ///   (``SubjectMotion/carry(_:velocities:lead:)``): its cells read the matte that far back,
    ///   so its part of the matte moves with it (the boxes given are where it is now).
    public static func map(subjects: [CinematicSubject], personMatte: [UInt8]?, matteShifts: [Int: NormalizedOffset] = [:],
                           width: Int, height: Int, background: Double = LayeredDepth.backgroundDioptres) -> LayerMap {
        precondition(personMatte == nil || personMatte?.count == width * height)
        var painting = LayerPainting(subjects: subjects, personMatte: personMatte, matteShifts: matteShifts,
                                     map: LayerMap.empty(width: width, height: height, background: background))
        guard !subjects.isEmpty else { return painting.map }
        painting.paintZones()
        if personMatte != nil { painting.spreadThroughPeople() }
        return painting.map
    }

    /// How far sideways a face's layer may reach through the network's matte beyond its zone:
    /// this many face widths each side of its middle (shoulders and arms of a bulky coat, a thing
    /// held out; the zone's 5 widths across hold a body standing straight)…
    public static let faceReachWidths = 3.5
    /// …and an upper body's: this share of its width each side.
    public static let bodyReachWiden = 0.75

    /// The box a person's layer may reach into through the network's matte (``map(subjects:personMatte:matteShifts:width:height:background:)``):
    /// its zone, wider. A cat's is its zone.
    public static func reach(of subject: CinematicSubject) -> NormalizedRect {
        let b = subject.bounds, zone = zone(of: subject)
        let (x0, x1) = switch subject.kind {
        case .face: (b.midX - faceReachWidths * b.width, b.midX + faceReachWidths * b.width)
        case .upperBody: (b.x - bodyReachWiden * b.width, b.x + b.width + bodyReachWiden * b.width)
        case .catFace: (zone.x, zone.x + zone.width)
        }
        let left = max(0, x0), right = min(1, x1)
        return NormalizedRect(x: left, y: zone.y, width: max(0, right - left), height: zone.height)
    }

    /// `matte` (`width` × `height` cells) at the cell coordinates (`column`, `row`) (cell
    /// centres at whole numbers), between cell centres linearly; beyond the edge, the edge's cells.
    static func sample(_ matte: [UInt8], width: Int, height: Int, column: Double, row: Double) -> UInt8 {
        let fx = min(max(column, 0), Double(width - 1)), fy = min(max(row, 0), Double(height - 1))
        let x0 = Int(fx), y0 = Int(fy), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let top = Double(matte[y0 * width + x0]) * (1 - ax) + Double(matte[y0 * width + x1]) * ax
        let bottom = Double(matte[y1 * width + x0]) * (1 - ax) + Double(matte[y1 * width + x1]) * ax
        return UInt8((top * (1 - ay) + bottom * ay).rounded())
    }

    /// A cat head's matte at (`x`, `y`): 255 inside ``catSolid`` of the ellipse, fading to 0
    /// at its edge.
    static func catMatte(x: Double, y: Double, face: NormalizedRect) -> UInt8 {
        let dx = (x - face.midX) / (catRadii.x * face.width), dy = (y - face.midY) / (catRadii.y * face.height)
        let distance = (dx * dx + dy * dy).squareRoot()
        let strength = max(0, min(1, (1 - distance) / (1 - catSolid)))
        return UInt8((strength * 255).rounded())
    }
}

/// One layer map being drawn by ``LayerZones/map(subjects:personMatte:matteShifts:width:height:background:)``:
/// the subjects' layers, and which of them owns each cell.
private struct LayerPainting {
    struct Layer {
        let subject: CinematicSubject
        let zone: NormalizedRect
        let code: UInt8
        /// How far the subject moved since the matte was made.
        let shift: NormalizedOffset
        /// Its reach in cells: the columns and rows whose centres the reach holds.
        let columns: Range<Int>, rows: Range<Int>
    }

    let layers: [Layer]
    let personMatte: [UInt8]?
    let width: Int, height: Int
    var map: LayerMap
    /// The layer each cell belongs to; -1: the background.
    var owner: [Int]
    /// A person's cells of at least one half, in the order painted: where the spread starts.
    var seeds: [Int] = []

    init(subjects: [CinematicSubject], personMatte: [UInt8]?, matteShifts: [Int: NormalizedOffset], map: LayerMap) {
        let width = map.width, height = map.height
        /// The cells whose centres lie within `start` + `length` (none when it is empty).
        func cells(from start: Double, length: Double, count: Int) -> Range<Int> {
            let first = Int((start * Double(count) - 0.5).rounded(.up)), last = Int(((start + length) * Double(count) - 0.5).rounded(.down))
            return first..<max(first, last + 1)
        }
        layers = subjects.map { subject in
            let reach = LayerZones.reach(of: subject)
            return Layer(subject: subject, zone: LayerZones.zone(of: subject),
                         code: LayerMap.code(LayeredDepth.dioptres(of: subject.kind, bounds: subject.bounds)),
                         shift: matteShifts[subject.id] ?? .zero, columns: cells(from: reach.x, length: reach.width, count: width),
                         rows: cells(from: reach.y, length: reach.height, count: height))
        }
        self.personMatte = personMatte
        self.width = width
        self.height = height
        self.map = map
        owner = [Int](repeating: -1, count: width * height)
    }

    /// The network's matte under layer `index`'s subject at the cell (`column`, `row`): read as
    /// far back as the subject moved.
    func person(_ index: Int, _ column: Int, _ row: Int) -> UInt8 {
        guard let personMatte else { return 0 }
        let shift = layers[index].shift
        if shift == .zero { return personMatte[row * width + column] }
        return LayerZones.sample(personMatte, width: width, height: height, column: Double(column) - shift.dx * Double(width),
                                 row: Double(row) - shift.dy * Double(height))
    }

    /// Each cell in a zone to the subject whose box is nearest sideways, in its widths: a
    /// person's cell takes the network's matte, a cat's its head's ellipse. Only the cells about
    /// the zones are looked at (a cell's centre decides, as ``NormalizedRect/contains(x:y:)`` says).
    mutating func paintZones() {
        /// The cells whose centres may lie within `start` + `length`, with one to spare each side.
        func around(_ start: Double, _ length: Double, _ count: Int) -> Range<Int> {
            let bound = Double(count) + 2, low = start * Double(count), high = (start + length) * Double(count)
            guard low.isFinite, high.isFinite else { return 0..<0 }
            let first = max(0, Int(min(max(low, -bound), bound).rounded(.down)) - 1)
            let last = min(count - 1, Int(min(max(high, -bound), bound).rounded(.up)) + 1)
            return first..<max(first, last + 1)
        }
        // Per row, the columns any zone about it may hold (first ..< end; empty: none).
        var first = [Int](repeating: width, count: height), end = [Int](repeating: 0, count: height)
        for layer in layers {
            let columns = around(layer.zone.x, layer.zone.width, width)
            for row in around(layer.zone.y, layer.zone.height, height) where !columns.isEmpty {
                first[row] = min(first[row], columns.lowerBound)
                end[row] = max(end[row], columns.upperBound)
            }
        }
        for row in 0..<height where first[row] < end[row] {
            let y = (Double(row) + 0.5) / Double(height)
            for column in first[row]..<end[row] {
                paint(column, row, y: y)
            }
        }
    }

    /// The cell (`column`, `row`) (its centre at height `y`) to the zone's subject nearest sideways, if any.
    @inline(__always)
    private mutating func paint(_ column: Int, _ row: Int, y: Double) {
        let x = (Double(column) + 0.5) / Double(width)
        var best: (index: Int, sideways: Double)?
        for (index, layer) in layers.enumerated() where layer.zone.contains(x: x, y: y) {
            let sideways = abs(x - layer.subject.bounds.midX) / max(layer.subject.bounds.width, 1e-6)
            if best == nil || sideways < best!.sideways { best = (index, sideways) }
        }
        guard let best else { return }
        let layer = layers[best.index], cell = row * width + column
        owner[cell] = best.index
        map.depth[cell] = layer.code
        map.matte[cell] = layer.subject.kind == .catFace ? LayerZones.catMatte(x: x, y: y, face: layer.subject.bounds)
            : person(best.index, column, row)
        if layer.subject.kind != .catFace && map.matte[cell] >= 128 { seeds.append(cell) }
    }

    /// Out from each person's cells of at least one half, through the network's people (at least
    /// one half) not yet owned, as far as the person's reach.
    mutating func spreadThroughPeople() {
        var queue = seeds
        var next = 0
        while next < queue.count {
            let cell = queue[next], index = owner[cell], row = cell / width, column = cell % width
            next += 1
            if take(column - 1, row, into: index) { queue.append(cell - 1) }
            if take(column + 1, row, into: index) { queue.append(cell + 1) }
            if take(column, row - 1, into: index) { queue.append(cell - width) }
            if take(column, row + 1, into: index) { queue.append(cell + width) }
        }
    }

    /// Takes the cell (`column`, `row`) into layer `index` when it is free, in the layer's reach
    /// and the network's person there; whether it did.
    private mutating func take(_ column: Int, _ row: Int, into index: Int) -> Bool {
        guard layers[index].columns.contains(column), layers[index].rows.contains(row), owner[row * width + column] < 0 else { return false }
        let value = person(index, column, row)
        guard value >= 128 else { return false }
        let cell = row * width + column
        (owner[cell], map.depth[cell], map.matte[cell]) = (index, layers[index].code, value)
        return true
    }
}
