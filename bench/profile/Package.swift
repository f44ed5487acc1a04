// swift-tools-version:6.0
// A harness that runs Reel's origin (ReelOrigin.OriginServer) without the command line, for
// bench/profile-origin.sh: valgrind 3.19 (Debian 12) crashes on the `reel` binary itself
// (libdispatch's signal thread), not on this.
import Foundation
import PackageDescription

// A path dependency is named after its folder (the checkout's name), so ask for that.
let reel = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

let package = Package(
    name: "origin-profile",
    dependencies: [.package(path: reel.path)],
    targets: [
        .executableTarget(name: "origin-harness",
                          dependencies: [.product(name: "ReelOrigin", package: reel.lastPathComponent.lowercased())]),
    ],
    swiftLanguageModes: [.v6]
)
