// swift-tools-version:6.0
// Reel's benchmark programs, a package of their own so that Reel's build (and its test build)
// never compiles them: each bench/*.sh that needs one builds it here in release,
//   swift build -c release --package-path bench/swift --product NAME
// and runs it from `swift build -c release --package-path bench/swift --show-bin-path`.
// They use Reel's modules through the products of the package two folders up (a path
// dependency: nothing is fetched); the two browser ones its ReelHarness (the WebDriver client,
// SplitMix64), never the tests' own support target.
import PackageDescription

let package = Package(
    name: "ReelBench",
    // The name, not the folder's (a checkout may be called anything).
    dependencies: [.package(name: "Reel", path: "../..")],
    targets: [
        // What the programs share to report: percentiles and table rows.
        .target(name: "BenchTable"),
        // The detectors at 1080p (bench/detector.sh).
        .executableTarget(name: "reel-bench-detector", dependencies: [
            "BenchTable",
            .product(name: "ReelVision", package: "Reel"), .product(name: "ReelCore", package: "Reel"),
        ]),
        // The cinematic camera's stages at 720p (bench/cinematic.sh).
        .executableTarget(name: "reel-bench-cinematic", dependencies: [
            "BenchTable",
            .product(name: "ReelVision", package: "Reel"), .product(name: "ReelCore", package: "Reel"),
        ]),
        // The compositor's cost per 1080p frame (bench/compose.sh).
        .executableTarget(name: "reel-bench-compose", dependencies: [
            .product(name: "ReelCompose", package: "Reel"), .product(name: "ReelCore", package: "Reel"),
        ]),
        // The studio's preview latency, capture → drawn in headless chromium (bench/studio-latency.sh).
        .executableTarget(name: "reel-bench-preview", dependencies: [
            "BenchTable",
            .product(name: "ReelStudio", package: "Reel"), .product(name: "ReelMedia", package: "Reel"),
            .product(name: "ReelCore", package: "Reel"), .product(name: "ReelHarness", package: "Reel"),
        ]),
        // The studio with 1,000 sessions in its library: GET /api/sessions over loopback and the
        // library page's first render in headless chromium (bench/studio-library.sh).
        .executableTarget(name: "reel-bench-library", dependencies: [
            "BenchTable",
            .product(name: "ReelStudio", package: "Reel"), .product(name: "ReelRecord", package: "Reel"),
            .product(name: "ReelStore", package: "Reel"), .product(name: "ReelMedia", package: "Reel"),
            .product(name: "ReelCore", package: "Reel"), .product(name: "ReelHarness", package: "Reel"),
        ]),
        // The privacy clips and the leak meter on the command line (bench/lib.sh's privacy_tool,
        // for bench/export.sh and bench/deface.sh).
        .executableTarget(name: "reel-privacy-bench", dependencies: [.product(name: "ReelPrivacyBench", package: "Reel")]),
    ],
    swiftLanguageModes: [.v6]
)
