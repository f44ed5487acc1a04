import Foundation
import Testing

/// Package.swift declares each target's dependencies, and they are exactly the package's modules
/// its sources import: an import that is not declared builds only by luck (the module happens to
/// be built first), and a declaration nothing imports is a layer that is not there. This test
/// reads Package.swift and every target's sources and compares the two.
@Suite("Package.swift declares what each target imports")
struct PackageDependencyTests {
    struct Target {
        var name: String
        var folder: String
        var declared: Set<String>
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The targets of a manifest: `.target(name: "X", dependencies: ["A", …], path: "…")` and
    /// the executable, test and system-library forms, each with its folder.
    static func targets(inManifest manifest: String) throws -> [Target] {
        let declaration = try Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"(\w[\w-]*)"([^\n]*)"#)
        let dependencies = try Regex(#"dependencies:\s*\[([^\]]*)\]"#)
        let path = try Regex(#"path:\s*"([^"]+)""#)
        return manifest.matches(of: declaration).map { match in
            let kind = String(match.output[1].substring ?? ""), name = String(match.output[2].substring ?? "")
            let rest = String(match.output[3].substring ?? "")
            let names = rest.firstMatch(of: dependencies).map { String($0.output[1].substring ?? "") } ?? ""
            let declared = Set(names.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }.filter { !$0.isEmpty })
            let folder = rest.firstMatch(of: path).map { String($0.output[1].substring ?? "") } ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            return Target(name: name, folder: folder, declared: declared)
        }
    }

    /// The modules a folder's Swift files import (`import X`, `@testable import X`,
    /// `@_exported import X`, `internal import X`; `import struct X.Y` counts as X).
    static func imports(inFolder folder: String) throws -> Set<String> {
        let line = try Regex(#"^(?:@\w+\s+)*(?:(?:public|internal|private|fileprivate|package)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#)
        var found = Set<String>()
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for row in text.split(separator: "\n") {
                if let match = String(row).firstMatch(of: line), let module = match.output[1].substring { found.insert(String(module)) }
            }
        }
        return found
    }

    /// What is wrong with `targets`: undeclared imports and unused declarations, one a line.
    static func mismatches(_ targets: [Target], root: String) throws -> [String] {
        let modules = Set(targets.map(\.name))
        var found: [String] = []
        for target in targets where FileManager.default.fileExists(atPath: root + "/" + target.folder) {
            let imported = try imports(inFolder: root + "/" + target.folder).intersection(modules).subtracting([target.name])
            let declared = target.declared.intersection(modules)
            for module in imported.subtracting(declared).sorted() {
                found.append("\(target.name) imports \(module), which Package.swift does not declare for it")
            }
            for module in declared.subtracting(imported).sorted() {
                found.append("\(target.name) declares \(module), which none of its sources imports")
            }
        }
        return found
    }

    @Test("every target's declared dependencies are exactly the package modules its sources import")
    func dependenciesAreImports() throws {
        let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        let targets = try Self.targets(inManifest: manifest)
        #expect(targets.count > 40, "read \(targets.count) targets from Package.swift")
        #expect(targets.contains { $0.name == "ReelStudio" && $0.declared.contains("ReelHTTP") })
        let found = try Self.mismatches(targets, root: Self.root)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("the check finds an undeclared import and an unused declaration")
    func checkFindsBothWays() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-deps-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["A", "B", "C"] {
            try FileManager.default.createDirectory(atPath: folder + "/Sources/" + name, withIntermediateDirectories: true)
        }
        try "import Foundation\n@testable import B\nimport struct C.Thing\n".write(toFile: folder + "/Sources/A/a.swift", atomically: true, encoding: .utf8)
        try "let b = 1\n".write(toFile: folder + "/Sources/B/b.swift", atomically: true, encoding: .utf8)
        try "public struct Thing {}\n".write(toFile: folder + "/Sources/C/c.swift", atomically: true, encoding: .utf8)
        let manifest = """
            .target(name: "A", dependencies: ["C", "B"]),
            .target(name: "B", dependencies: ["C"]),
            .target(name: "C"),
            """
        #expect(try Self.mismatches(try Self.targets(inManifest: manifest), root: folder) == ["B declares C, which none of its sources imports"])
        let missing = manifest.replacingOccurrences(of: #"dependencies: ["C", "B"]"#, with: #"dependencies: ["C"]"#)
        #expect(try Self.mismatches(try Self.targets(inManifest: missing), root: folder)
                == ["A imports B, which Package.swift does not declare for it", "B declares C, which none of its sources imports"])
    }
}
