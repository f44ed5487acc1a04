import Foundation
import ReelPrivacyBench
import ReelTestSupport
import Testing

/// The test clips' truth: pure rules first, then the decoded pixels against the photo.
@Suite struct PrivacyClipsTests {
    @Test func theSingleScenarioFollowsTheIssuesPhases() {
        let truth = PrivacyClips.truth(.single, width: 1280, height: 720)
        #expect(truth.frames.count == 420)
        #expect(truth.frames.map(\.index) == Array(0..<420))
        // Absent for 2 s, present everywhere else.
        for frame in truth.frames {
            #expect(frame.faces.isEmpty == (300..<360).contains(frame.index), "frame \(frame.index)")
            #expect(frame.dimmed == (180..<240).contains(frame.index), "frame \(frame.index)")
        }
        // The face is 100–250 px tall.
        let face = truth.frames[0].faces[0]
        #expect(face.height == 150 && abs(face.width - 141) < 0.01)
        // Tilt sweeps to ±30° and only in 3–6 s.
        let angles = truth.frames.compactMap { $0.faces.first?.angle }
        #expect(abs(angles.max()! - Double.pi / 6) < 0.01 && abs(angles.min()! + Double.pi / 6) < 0.01)
        #expect(truth.frames.filter { ($0.faces.first?.angle ?? 0) != 0 }.allSatisfy { $0.phase == "tilt" })
        // 40 % out of the frame at the end of the glide: 60 % of the width left, at the right edge.
        let out = truth.frames[290].faces[0]
        #expect(abs(out.box.width - 0.6 * out.width) < 1.5)
        #expect(out.box.x + out.box.width == 1280)
        // Every box lies in the frame.
        for frame in truth.frames {
            for f in frame.faces {
                #expect(f.box.x >= 0 && f.box.y >= 0 && f.box.x + f.box.width <= 1280 && f.box.y + f.box.height <= 720)
            }
        }
    }

    @Test func theTwoFacesScenarioHasTwoFacesOneSmaller() {
        let truth = PrivacyClips.truth(.twoFaces, width: 1920, height: 1080)
        #expect(truth.frames.count == 180)
        for frame in truth.frames {
            #expect(frame.faces.count == 2)
            #expect(frame.faces[0].box.intersectionOverUnion(frame.faces[1].box) == 0)
        }
        let (a, b) = (truth.frames[0].faces[0], truth.frames[0].faces[1])
        #expect(a.height == 225 && abs(b.height / a.height - 0.6) < 0.02)
    }

    @Test("the hard-case clips: each hard case is in the truth where the scenario says")
    func hardCases() {
        let w = 1280.0, h = 720.0
        // Out of each edge: wholly out (no face) while away, whole in the middle between trips.
        let edges = PrivacyClips.truth(.edges, width: 1280, height: 720)
        #expect(edges.frames.count == 360 && edges.frames.map(\.phase).first == "leftOut" && edges.frames.last?.phase == "bottomBack")
        for trip in 0..<4 {
            #expect(edges.frames[90 * trip + 40..<90 * trip + 50].allSatisfy { $0.faces.isEmpty }, "trip \(trip) away")
            let home = edges.frames[90 * trip].faces
            #expect(home.count == 1 && home[0].box.width == home[0].width, "trip \(trip) starts whole")
            // Partly in on the way: a box cut by the edge.
            #expect(edges.frames[90 * trip..<90 * trip + 40].contains { f in f.faces.contains { $0.box.width < $0.width - 1 || $0.box.height < $0.height - 1 } })
        }
        // Rolled to ±45°.
        let angles = PrivacyClips.truth(.roll, width: 1280, height: 720).frames.compactMap { $0.faces.first?.angle }
        #expect(abs(angles.max()! - Double.pi / 4) < 1e-9 && abs(angles.min()! + Double.pi / 4) < 1e-9)
        // Turned to 80° both ways: the face narrows to a strip off the head's centre, on the side it turns to.
        let profile = PrivacyClips.truth(.profile, width: 1280, height: 720)
        let front = profile.frames[0].faces[0], right = profile.frames[45].faces[0], left = profile.frames[135].faces[0]
        #expect(abs((right.yaw ?? 0) - 80 * Double.pi / 180) < 1e-9 && abs((left.yaw ?? 0) + 80 * Double.pi / 180) < 1e-9)
        #expect(right.width < 0.3 * front.width && left.width < 0.3 * front.width)
        let layer = PrivacyClips.layers(.profile, width: 1280, height: 720)[0]
        let head = { (n: Int) in layer.overlayX.value(atFrame: n) + Double(layer.rotatedSize / 2) }
        #expect(right.centerX > head(45) + 50 && left.centerX < head(135) - 50)
        // Small: 20 and 30 px tall.
        let small = PrivacyClips.truth(.small, width: 1280, height: 720).frames[0].faces
        #expect(small.count == 2 && abs(small[0].height - 20) < 0.5 && abs(small[1].height - 30) < 0.5)
        // Fast: wholly out on the left at 0, wholly out on the right 30 frames (1 s) later.
        let fast = PrivacyClips.truth(.fast, width: 1280, height: 720)
        #expect(fast.frames[0].faces.isEmpty && fast.frames[30].faces.isEmpty && !fast.frames[15].faces.isEmpty)
        #expect(abs(fast.frames[15].faces[0].centerX - w / 2) < 30)
        // Dim: a half, a third and a quarter above black.
        #expect(PrivacyClips.Scenario.dim.dims.map(\.factor) == [0.5, 0.35, 0.25])
        #expect(PrivacyClips.truth(.dim, width: 1280, height: 720).frames.allSatisfy { $0.dimmed })
        // Crossing: two faces whose boxes meet in the middle of the clip, apart at both ends.
        let crossing = PrivacyClips.truth(.crossing, width: 1280, height: 720)
        #expect(crossing.frames[0].faces[0].box.intersectionOverUnion(crossing.frames[0].faces[1].box) == 0)
        #expect(crossing.frames[60].faces[0].box.intersectionOverUnion(crossing.frames[60].faces[1].box) > 0.15)
        #expect(crossing.frames[119].faces[0].centerX > crossing.frames[119].faces[1].centerX)
        // Every scenario's phases cover its frames exactly, in order.
        for scenario in PrivacyClips.Scenario.allCases {
            #expect(scenario.phases.map(\.frames).reduce(into: [Int]()) { $0 += Array($1) } == Array(0..<scenario.frameCount), "\(scenario)")
        }
        _ = h
    }

    @Test func keyframesDrawStraightLines() {
        let e = MotionExpression.keyframes([(10, 0), (20, 100), (30, 100), (40, -50)])
        #expect(e.value(atFrame: 0) == 0 && e.value(atFrame: 10) == 0 && e.value(atFrame: 15) == 50)
        #expect(e.value(atFrame: 25) == 100 && e.value(atFrame: 35) == 25 && e.value(atFrame: 99) == -50)
        #expect(e.ffmpeg.contains("if(lt(n,10.0)"))
    }

    @Test func expressionsRenderForFFmpegAndEvaluateTheSame() {
        let e: MotionExpression = .ifLess(.frame, 10, then: .number(2.5) * .sine(.frame), else: .floor(.frame / 4))
        #expect(e.ffmpeg == "if(lt(n,10.0),(2.5*sin(n)),floor((n/4.0)))")
        #expect(e.ffmpegOverlay == "if(lt((n-1),10.0),(2.5*sin((n-1))),floor(((n-1)/4.0)))")
        #expect(e.value(atFrame: 3) == 2.5 * sin(3.0))
        #expect(e.value(atFrame: 11) == 2)
        #expect(MotionExpression.number(7).evenFloor.value(atFrame: 0) == 6)
        #expect(MotionExpression.number(-3).evenFloor.value(atFrame: 0) == -4)
    }

    /// The decoded clip shows the photo's face where the truth says, turned as it says: the
    /// frame's pixels inside the face correlate with the photo mapped through the truth.
    @Test(arguments: [PrivacyClips.Scenario.single, .twoFaces, .edges, .roll, .fast, .crossing, .passingTilted, .smallCrossing])
    func truthBoxesLandOnTheFace(_ scenario: PrivacyClips.Scenario) throws {
        // Made once per test process (`SharedClips`), as `LeakMeterTests` reads the same clips.
        let clip = try SharedClips.clip(scenario, width: 640, height: 360)
        #expect(try FFmpegTool.probe(clip.video).frames == scenario.frameCount)
        #expect(try ClipTruth.read(from: clip.truthPath) == clip.truth)
        let photoReader = try GrayVideoReader(path: TestPhotos.astronautPath, width: 512, height: 512)
        let photo = try #require(try photoReader.next())
        let reader = try GrayVideoReader(path: clip.video, width: 640, height: 360)
        let checked: Set<Int> = switch scenario {
        case .single: [0, 45, 112, 135, 157, 200, 270, 299, 300, 359, 360, 419]
        case .twoFaces: [0, 90, 179]
        default: Set(stride(from: 0, to: scenario.frameCount, by: 23))
        }
        var index = 0
        while let frame = try reader.next() {
            defer { index += 1 }
            guard checked.contains(index) else { continue }
            let faces = clip.truth.frames[index].faces
            if scenario == .single && (300..<360).contains(index) { #expect(faces.isEmpty); continue }
            for face in faces {
                // Whole faces not hidden behind another (the crossing's back face is; an edge cuts others).
                let cut = face.box.width < face.width * abs(cos(face.angle)) - 1 || face.box.height < face.height * abs(cos(face.angle)) - 1
                let behind = faces.contains { $0.layer > face.layer && $0.box.intersectionOverUnion(face.box) > 0 } || (face.visibleShare ?? 1) < 0.99
                if scenario != .single && (cut || behind) { continue }
                let placed = Self.photoCorrelation(frame: frame, width: 640, height: 360, face: face, photo: photo)
                #expect(placed > 0.85, "frame \(index) layer \(face.layer): \(placed)")
                // The test can fail: a third of a face off, or turned the other way, does not match.
                var shifted = face
                shifted.centerX += face.width / 3
                let off = Self.photoCorrelation(frame: frame, width: 640, height: 360, face: shifted, photo: photo)
                #expect(off < placed - 0.3, "frame \(index): shifted \(off) vs \(placed)")
                if abs(face.angle) > 0.4 {
                    var turned = face
                    turned.angle = -face.angle
                    let wrong = Self.photoCorrelation(frame: frame, width: 640, height: 360, face: turned, photo: photo)
                    #expect(wrong < placed - 0.2, "frame \(index): turned \(wrong) vs \(placed)")
                }
            }
        }
        #expect(index == scenario.frameCount)
    }

    /// Pearson correlation between the frame inside the face ellipse (0.9 of it, inside the
    /// frame) and the photo sampled through the face's inverse placement (bilinear).
    static func photoCorrelation(frame: [UInt8], width: Int, height: Int, face: TruthFace, photo: [UInt8]) -> Double {
        let pf = PrivacyClips.photoFace
        let scale = pf.width / face.width
        let (pcx, pcy) = (pf.x + pf.width / 2, pf.y + pf.height / 2)
        let (c, s) = (cos(face.angle), sin(face.angle))
        var xs: [Double] = [], ys: [Double] = []
        let r = max(face.width, face.height)
        for py in max(0, Int(face.centerY - r))..<min(height, Int(face.centerY + r)) {
            for px in max(0, Int(face.centerX - r))..<min(width, Int(face.centerX + r)) {
                let (fx, fy) = (Double(px) + 0.5, Double(py) + 0.5)
                guard face.ellipseContains(fx, fy, scale: 0.9) else { continue }
                let (dx, dy) = (fx - face.centerX, fy - face.centerY)
                let u = (dx * c + dy * s) * scale + pcx - 0.5, v = (-dx * s + dy * c) * scale + pcy - 0.5
                let (x0, y0) = (Int(u.rounded(.down)), Int(v.rounded(.down)))
                guard x0 >= 0, y0 >= 0, x0 + 1 < 512, y0 + 1 < 512 else { continue }
                let (ax, ay) = (u - Double(x0), v - Double(y0))
                func p(_ x: Int, _ y: Int) -> Double { Double(photo[y * 512 + x]) }
                let sample = (p(x0, y0) * (1 - ax) + p(x0 + 1, y0) * ax) * (1 - ay) + (p(x0, y0 + 1) * (1 - ax) + p(x0 + 1, y0 + 1) * ax) * ay
                xs.append(Double(frame[py * width + px])); ys.append(sample)
            }
        }
        let n = Double(xs.count)
        guard n > 10 else { return 0 }
        let (mx, my) = (xs.reduce(0, +) / n, ys.reduce(0, +) / n)
        var (sxy, sxx, syy) = (0.0, 0.0, 0.0)
        for i in xs.indices { sxy += (xs[i] - mx) * (ys[i] - my); sxx += (xs[i] - mx) * (xs[i] - mx); syy += (ys[i] - my) * (ys[i] - my) }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }

    @Test func aMissingPhotoIsAnErrorNamingIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        #expect { try PrivacyClips.make(.single, width: 640, height: 360, in: dir.path("c"), photo: dir.path("nope.png")) } throws: {
            String(describing: $0).contains("nope.png") && String(describing: $0).contains("REEL_TEST_PHOTO")
        }
    }
}
