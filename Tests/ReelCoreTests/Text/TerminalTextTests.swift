import Foundation
import ReelCore
import Testing

@Suite("Terminal text: safe, width, cut, pad, table")
struct TerminalTextTests {
    @Test("control and reordering characters are shown, never sent: ESC, BEL, DEL, C1 CSI, bidi override")
    func safe() {
        #expect(TerminalText.safe("plain テキスト 📚") == "plain テキスト 📚")
        #expect(TerminalText.safe("\u{1B}[31mred\u{7}") == "^[[31mred^G")
        #expect(TerminalText.safe("a\tb\nc\u{7F}") == "a^Ib^Jc^?")
        #expect(TerminalText.safe("x\u{9B}31m") == "x\\u{9B}31m")
        #expect(TerminalText.safe("abc\u{202E}fdp.exe") == "abc\\u{202E}fdp.exe")
        #expect(!TerminalText.safe("\u{0}\u{1F}\u{85}").unicodeScalars.contains(where: TerminalText.isUnsafe))
    }

    @Test("width by grapheme cluster and East Asian width")
    func width() {
        #expect(TerminalText.width("abc") == 3)
        #expect(TerminalText.width("数学") == 4)
        #expect(TerminalText.width("ｶﾀｶﾅ") == 4)  // halfwidth katakana: one column each
        #expect(TerminalText.width("ＡＢ") == 4)  // fullwidth Latin
        #expect(TerminalText.width("한국") == 4)
        #expect(TerminalText.width("📚") == 2)
        #expect(TerminalText.width("👩‍👩‍👧") == 2)  // a ZWJ family is one picture
        #expect(TerminalText.width("👍🏽") == 2)  // with a skin-tone modifier
        #expect(TerminalText.width("🇯🇵") == 2)  // a flag: two regional indicators, one cluster
        #expect(TerminalText.width("❤️") == 2)  // text-default emoji with VS16
        #expect(TerminalText.width("e\u{301}") == 1)  // e + combining acute
        #expect(TerminalText.width("a\u{200B}b") == 2)  // zero-width space
    }

    @Test("cut by columns with an ellipsis, never through a wide character or a cluster")
    func truncate() {
        #expect(TerminalText.truncated("short", toWidth: 10) == "short")
        #expect(TerminalText.truncated("exactly10!", toWidth: 10) == "exactly10!")
        #expect(TerminalText.truncated("eleven char", toWidth: 10) == "eleven ch…")
        #expect(TerminalText.truncated("数学の勉強をする", toWidth: 7) == "数学の…")  // 6 + 1, not half of 勉
        #expect(TerminalText.truncated("数学の勉強をする", toWidth: 8) == "数学の…")
        #expect(TerminalText.truncated("ab📚📚", toWidth: 4) == "ab…")
        #expect(TerminalText.truncated("👩‍👩‍👧👩‍👩‍👧", toWidth: 3) == "👩‍👩‍👧…")
        #expect(TerminalText.truncated("abc", toWidth: 0) == "")
        for limit in 1...12 { #expect(TerminalText.width(TerminalText.truncated("数学 Physics 📚 勉強", toWidth: limit)) <= limit) }
    }

    @Test("a table lines up wide, emoji and cut cells, shows control characters, and ends no line in spaces")
    func table() {
        let text = TerminalText.table([["TITLE", "TAGS", "FILE"],
                                       ["数学", "-", "/a.mp4"],
                                       ["Physics 📚", "exam", "/b.mp4"],
                                       ["\u{1B}[31mred", "x", "/c.mp4"],
                                       [String(repeating: "long ", count: 10), "y", "/d.mp4"]],
                                      maximumWidths: [12, nil, nil])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(!text.contains("\u{1B}") && !text.contains("\u{FFFD}"))
        #expect(lines[3].hasPrefix("^[[31mred"))
        #expect(lines[4].hasPrefix("long long l…"))
        // The file column starts at the same column on every line.
        let columns = lines.map { line -> Int in
            let file = line.range(of: "/") ?? line.range(of: "FILE")!
            return TerminalText.width(String(line[..<file.lowerBound]))
        }
        #expect(Set(columns).count == 1, "\(columns)\n\(text)")
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
    }
}

@Suite("Library names: one rule for titles, tags and materials")
struct LibraryNameTests {
    @Test("trimmed; empty, too long, comma in a tag, control and reordering characters refused with the reason")
    func validate() throws {
        #expect(try LibraryName.validate("  Chemistry  ", as: .title) == "Chemistry")
        #expect(try LibraryName.validate("数学, 物理", as: .title) == "数学, 物理")  // commas are fine in a title
        #expect(throws: LibraryName.Error.empty(.title)) { try LibraryName.validate(" \u{3000} ", as: .title) }
        #expect(throws: LibraryName.Error.self) { try LibraryName.validate("a,b", as: .tag) }
        #expect(throws: LibraryName.Error.self) { try LibraryName.validate("a\tb", as: .tag) }
        #expect(throws: LibraryName.Error.self) { try LibraryName.validate("red\u{1B}[31m", as: .title) }
        #expect(throws: LibraryName.Error.self) { try LibraryName.validate("bell\u{7}", as: .author) }
        #expect(throws: LibraryName.Error.self) { try LibraryName.validate("abc\u{202E}gnp", as: .title) }
        #expect(throws: LibraryName.Error.self) { try LibraryName.validate("two\nlines", as: .title) }
        // A control character at the end is refused, not trimmed away silently.
        #expect(throws: LibraryName.Error.self) { try LibraryName.validate("exam\t", as: .tag) }
        #expect(try LibraryName.validate(String(repeating: "x", count: 64), as: .tag).count == 64)
        #expect(throws: LibraryName.Error.tooLong(.tag, String(repeating: "x", count: 65))) {
            try LibraryName.validate(String(repeating: "x", count: 65), as: .tag)
        }
        #expect(try LibraryName.validate(String(repeating: "📚", count: 200), as: .title).count == 200)  // characters, not bytes
        #expect(throws: LibraryName.Error.self) { try LibraryName.validate(String(repeating: "x", count: 201), as: .title) }
        let message = "\(LibraryName.Error.forbiddenCharacter(.tag, "a\u{1B}b", found: "^["))"
        #expect(message.contains("^[") && !message.contains("\u{1B}"))
    }

    @Test("text from elsewhere is cleaned, not refused: controls become one space, cut to the maximum")
    func cleaned() {
        #expect(LibraryName.cleaned("Organic\tChemistry\n\n2nd ed.", as: .title) == "Organic Chemistry 2nd ed.")
        #expect(LibraryName.cleaned("\u{1B}\u{7}", as: .title) == nil)
        #expect(LibraryName.cleaned(String(repeating: "y", count: 300), as: .publisher)?.count == 200)
        #expect(LibraryName.cleaned("a,b", as: .tag) == "a b")
    }

    @Test("Tag uses the same rule")
    func tag() throws {
        #expect(try Tag(" exam ").name == "exam")
        #expect(throws: Tag.Error.forbiddenCharacter("a\tb")) { try Tag("a\tb") }
        #expect(throws: Tag.Error.self) { try Tag(String(repeating: "t", count: 500)) }
    }
}

@Suite("Trash info and session filter")
struct TrashInfoTests {
    @Test("Path= is percent-encoded (space, %, non-ASCII) and reads back; a file that is not trash info is refused")
    func roundTrip() throws {
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        let info = TrashInfo(originalPath: "/home/kai/勉強 100%.mp4", deletedAt: date)
        let utc = TimeZone(identifier: "UTC")!
        let text = info.text(in: utc)
        #expect(text == "[Trash Info]\nPath=/home/kai/%E5%8B%89%E5%BC%B7%20100%25.mp4\nDeletionDate=2026-11-18T11:06:40\n")
        #expect(TrashInfo(text: text, timeZone: utc) == info)
        #expect(TrashInfo(text: "Path=/x\nDeletionDate=2026-11-18T10:13:20\n", timeZone: utc) == nil)
        #expect(TrashInfo(text: "[Trash Info]\nPath=relative\nDeletionDate=2026-11-18T10:13:20\n", timeZone: utc) == nil)
        #expect(TrashInfo.decode("%zz") == nil && TrashInfo.decode("%FF") == nil && TrashInfo.decode("a%2Fb") == "a/b")
    }

    @Test("a session's files: video, thumbnail, face track, review edits, each once")
    func paths() {
        let session = StudySession(id: UUID(), startedAt: Date(), endedAt: Date(), activeSeconds: 1, videoSeconds: 1, mode: .full,
                                   intervalSeconds: nil, filePath: "/v/a.mp4", thumbnailPath: "/v/a.jpg", faceTrackPath: nil, title: nil, tags: [])
        #expect(TrashedSession.paths(of: session) == ["/v/a.mp4", "/v/a.jpg", "/v/a.privacy.json"])
    }

    @Test("the filter: tag, since and until are local days, both included")
    func filter() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let session = StudySession(id: UUID(), startedAt: Date(timeIntervalSince1970: 1_795_000_000 - 40_000), endedAt: Date(), activeSeconds: 1,
                                   videoSeconds: 1, mode: .full, intervalSeconds: nil, filePath: "/v", thumbnailPath: nil, faceTrackPath: nil,
                                   title: nil, tags: ["exam"])
        let day = CalendarDay(containing: session.startedAt, in: tokyo)
        #expect(StudySessionFilter(tag: "exam", since: day, until: day, timeZone: tokyo).matches(session))
        #expect(!StudySessionFilter(tag: "Exam", timeZone: tokyo).matches(session))
        #expect(!StudySessionFilter(since: day.adding(days: 1), timeZone: tokyo).matches(session))
        #expect(!StudySessionFilter(until: day.adding(days: -1), timeZone: tokyo).matches(session))
        #expect(StudySessionFilter(since: day, until: day.adding(days: -1), timeZone: tokyo).isEmptyRange)
    }
}

@Suite("Sources held exclusively")
struct ExclusiveDeviceTests {
    @Test("a camera is held by one recording; files and the test source by none")
    func devices() throws {
        #expect(try SourceSpec(parsing: "v4l2:/dev/video2").exclusiveDevice == "/dev/video2")
        #expect(try SourceSpec(parsing: "file:/tmp/a.mp4").exclusiveDevice == nil)
        #expect(try SourceSpec(parsing: "test").exclusiveDevice == nil)
    }
}
