import Testing
@testable import ReelCore

@Suite("Cinematic layer map: zones, the network's matte per person, cats, depth codes")
struct LayerMapTests {
    static func face(_ id: Int, midX: Double, midY: Double, width: Double, kind: SubjectKind = .face) -> CinematicSubject {
        // Square faces in a 16:9 picture: a box `width` of the picture's width is 16/9 as tall in shares.
        let box = NormalizedRect(midX: midX, midY: midY, width: width, height: width * 16 / 9)
        return CinematicSubject(id: id, kind: kind, bounds: box, prominence: box.area)
    }

    @Test("the map's size: a quarter of the width, at most 480, the picture's shape, even sides")
    func size() {
        #expect(LayerMap.size(forWidth: 1280, height: 720) == (320, 180))
        #expect(LayerMap.size(forWidth: 1920, height: 1080) == (480, 270))
        #expect(LayerMap.size(forWidth: 3840, height: 2160) == (480, 270))
        #expect(LayerMap.size(forWidth: 1000, height: 562) == (250, 140))
        #expect(LayerMap.size(forWidth: 6, height: 2) == (2, 2))
    }

    @Test("depth codes: steps of 1/40 dioptre, clamped, the background exact")
    func codes() {
        #expect(LayerMap.code(LayeredDepth.backgroundDioptres) == 10)
        #expect(LayerMap.dioptres(10) == 0.25)
        #expect(LayerMap.code(5) == 200)
        #expect(LayerMap.code(-1) == 0 && LayerMap.code(100) == 255)
        #expect(abs(LayerMap.dioptres(LayerMap.code(1.2345)) - 1.2345) <= LayerMap.dioptreStep / 2)
    }

    @Test("no subjects: all background, whatever the network's matte says")
    func noSubjects() {
        let matte = [UInt8](repeating: 255, count: 40 * 24)
        let map = LayerZones.map(subjects: [], personMatte: matte, width: 40, height: 24)
        #expect(map == LayerMap.empty(width: 40, height: 24))
        #expect(map.dioptres(atX: 0.5, y: 0.5) == LayeredDepth.backgroundDioptres)
    }

    @Test("a face: its zone (5 face widths, a face height above it for the hair, down to the bottom) takes the network's matte and the face's layer; outside it, background")
    func oneFace() {
        let width = 80, height = 45
        let subject = Self.face(1, midX: 0.5, midY: 0.3, width: 0.1)
        let zone = LayerZones.zone(of: subject)
        #expect(abs(zone.x - 0.25) < 1e-9 && abs(zone.width - 0.5) < 1e-9)
        #expect(abs(zone.y - (subject.bounds.y - 1.0 * subject.bounds.height)) < 1e-9 && abs(zone.y + zone.height - 1) < 1e-9)
        let matte = [UInt8](repeating: 200, count: width * height)
        let map = LayerZones.map(subjects: [subject], personMatte: matte, width: width, height: height)
        let code = LayerMap.code(LayeredDepth.dioptres(of: .face, bounds: subject.bounds))
        // Inside the zone: the network's 200 and the face's depth; a person beside it (x 0.1): background.
        #expect(map.matte[30 * width + 40] == 200 && map.depth[30 * width + 40] == code)
        #expect(map.matte[30 * width + 8] == 0 && map.depth[30 * width + 8] == map.background)
        // Above the hair: background.
        #expect(map.matte[0 * width + 40] == 0)
        #expect(map.dioptres(atX: 0.5, y: 0.5) == LayerMap.dioptres(code))
        #expect(map.dioptres(atX: 0.05, y: 0.5) == LayeredDepth.backgroundDioptres)
    }

    @Test("two people side by side: each cell belongs to the face nearest sideways, in its widths, so each body keeps its own depth")
    func twoPeople() {
        let width = 160, height = 90
        let near = Self.face(1, midX: 0.35, midY: 0.35, width: 0.16)
        let far = Self.face(2, midX: 0.62, midY: 0.3, width: 0.06)
        let map = LayerZones.map(subjects: [near, far], personMatte: [UInt8](repeating: 255, count: width * height), width: width, height: height)
        let nearCode = LayerMap.code(LayeredDepth.dioptres(of: .face, bounds: near.bounds))
        let farCode = LayerMap.code(LayeredDepth.dioptres(of: .face, bounds: far.bounds))
        #expect(nearCode > farCode)
        let row = 60 * width
        #expect(map.depth[row + Int(0.35 * Double(width))] == nearCode)
        // Under the far face: the near person's zone reaches there, but the far face is nearer sideways in widths.
        #expect(map.depth[row + Int(0.62 * Double(width))] == farCode)
        // Between them, nearer (in face widths) to the wide near face.
        #expect(map.depth[row + Int(0.5 * Double(width))] == nearCode)
    }

    @Test("a cat's face: its head's ellipse is the matte (the network sees no cats), solid in the middle, fading to its edge")
    func cat() {
        let width = 80, height = 80
        let box = NormalizedRect(midX: 0.5, midY: 0.5, width: 0.2, height: 0.2)
        let cat = CinematicSubject(id: 3, kind: .catFace, bounds: box, prominence: 0.04)
        let map = LayerZones.map(subjects: [cat], personMatte: nil, width: width, height: height)
        #expect(map.matte[40 * width + 40] == 255)
        // The ellipse's edge is at x 0.63 (0.65 of 0.2 from the middle), solid to x 0.5975.
        #expect(map.matte[40 * width + 40 + 9] > 0 && map.matte[40 * width + 40 + 9] < 255)  // x 0.619
        #expect(map.matte[40 * width + 40 + 12] == 0)  // x 0.656
        #expect(map.matte[40 * width + 5] == 0 && map.depth[40 * width + 5] == map.background)
        // A person's zone without a network's matte: depth set, nothing covered.
        let person = Self.face(4, midX: 0.5, midY: 0.3, width: 0.1)
        let bare = LayerZones.map(subjects: [person], personMatte: nil, width: width, height: height)
        #expect(bare.matte.allSatisfy { $0 == 0 } && bare.depth[60 * width + 40] != bare.background)
    }

    @Test("a subject that moved since the matte was made: its cells read the matte that far back, between cells linearly; others and cats do not move")
    func shiftedMatte() {
        let width = 80, height = 45
        // The network's person: columns 30...49 solid, the rest empty (a sharp edge each side).
        var matte = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height { for column in 30..<50 { matte[row * width + column] = 255 } }
        let moved = Self.face(1, midX: 0.5 + 5.0 / 80, midY: 0.3, width: 0.1)
        let shift = NormalizedOffset(dx: 5.0 / 80, dy: 0)
        let map = LayerZones.map(subjects: [moved], personMatte: matte, matteShifts: [1: shift], width: width, height: height)
        let row = 35 * width
        #expect(map.matte[row + 34] == 0 && map.matte[row + 35] == 255 && map.matte[row + 54] == 255 && map.matte[row + 55] == 0)
        // Half a cell: the edge's cells are half covered.
        let half = LayerZones.map(subjects: [moved], personMatte: matte, matteShifts: [1: NormalizedOffset(dx: 0.5 / 80, dy: 0)],
                                  width: width, height: height)
        #expect(half.matte[row + 30] == 128 && half.matte[row + 31] == 255 && half.matte[row + 50] == 128 && half.matte[row + 51] == 0)
        // No shift, a shift for another id, or none given: the matte as it is.
        let still = LayerZones.map(subjects: [moved], personMatte: matte, width: width, height: height)
        #expect(still == LayerZones.map(subjects: [moved], personMatte: matte, matteShifts: [2: shift], width: width, height: height))
        #expect(still.matte[row + 30] == 255 && still.matte[row + 29] == 0)
        // Up and down too; beyond the picture's edge, the edge's cells (a person moved up reads
        // below the bottom row at the bottom).
        var lower = [UInt8](repeating: 0, count: width * height)
        for row in 40..<height { for column in 0..<width { lower[row * width + column] = 255 } }
        let up = LayerZones.map(subjects: [moved], personMatte: lower, matteShifts: [1: NormalizedOffset(dx: 0, dy: -10.0 / 45)],
                                width: width, height: height)
        #expect(up.matte[29 * width + 40] == 0 && up.matte[30 * width + 40] == 255 && up.matte[(height - 1) * width + 40] == 255)
        // A cat's ellipse is its box's, wherever the matte came from.
        let box = NormalizedRect(midX: 0.5, midY: 0.5, width: 0.2, height: 0.2)
        let cat = CinematicSubject(id: 3, kind: .catFace, bounds: box, prominence: 0.04)
        #expect(LayerZones.map(subjects: [cat], personMatte: matte, matteShifts: [3: shift], width: width, height: height)
            == LayerZones.map(subjects: [cat], personMatte: matte, width: width, height: height))
    }

    @Test("a person's layer reaches beyond the zone through the network's matte joined to it (an arm held out), out to 3.5 face widths a side; a person apart from them stays background")
    func reach() {
        let width = 160, height = 90
        let subject = Self.face(1, midX: 0.5, midY: 0.3, width: 0.1)
        let zone = LayerZones.zone(of: subject), reach = LayerZones.reach(of: subject)
        #expect(abs(reach.x - 0.15) < 1e-9 && abs(reach.width - 0.7) < 1e-9 && reach.y == zone.y && reach.height == zone.height)
        // The body under the face (columns 60...99), an arm held out from it to the left edge at
        // rows 60...69, and another person apart at columns 140...155.
        var matte = [UInt8](repeating: 0, count: width * height)
        for row in 40..<height { for column in 60..<100 { matte[row * width + column] = 255 } }
        for row in 60..<70 { for column in 0..<60 { matte[row * width + column] = 230 } }
        for row in 40..<height { for column in 140..<156 { matte[row * width + column] = 255 } }
        let map = LayerZones.map(subjects: [subject], personMatte: matte, width: width, height: height)
        let code = LayerMap.code(LayeredDepth.dioptres(of: .face, bounds: subject.bounds))
        // The zone ends at x 0.25 (column 40); the arm is the person's out to x 0.15 (column 24).
        #expect(map.matte[65 * width + 30] == 230 && map.depth[65 * width + 30] == code)
        #expect(map.matte[65 * width + 24] == 230 && map.depth[65 * width + 24] == code)
        #expect(map.matte[65 * width + 23] == 0 && map.depth[65 * width + 23] == map.background)
        #expect(map.matte[50 * width + 145] == 0 && map.depth[50 * width + 145] == map.background)
        // Under one half, the network's matte does not carry the layer out (a soft shadow, noise).
        var faint = matte
        for row in 60..<70 { for column in 0..<60 { faint[row * width + column] = 100 } }
        let soft = LayerZones.map(subjects: [subject], personMatte: faint, width: width, height: height)
        #expect(soft.matte[65 * width + 30] == 0 && soft.depth[65 * width + 30] == soft.background)
        // Inside the zone the cells are the person's whatever the matte says.
        #expect(soft.matte[65 * width + 45] == 100 && soft.depth[65 * width + 45] == code)
        // A face carried off the picture (its zone and reach empty) takes nothing, whatever the matte.
        let gone = Self.face(2, midX: 1.5, midY: 0.3, width: 0.1)
        #expect(LayerZones.reach(of: gone).width == 0)
        #expect(LayerZones.map(subjects: [gone], personMatte: [UInt8](repeating: 255, count: width * height), width: width, height: height)
            == LayerMap.empty(width: width, height: height))
        // At the picture's left edge: out to 3.5 face widths to the right (x 0.4, column 63) and no further.
        let edge = Self.face(3, midX: 0.05, midY: 0.3, width: 0.1)
        let full = LayerZones.map(subjects: [edge], personMatte: [UInt8](repeating: 255, count: width * height), width: width, height: height)
        #expect(full.matte[65 * width] == 255 && full.matte[65 * width + 63] == 255 && full.matte[65 * width + 64] == 0)
    }
}
