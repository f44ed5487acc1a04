// swift-tools-version:6.0
import PackageDescription

// Layers, from the top: reel → ReelCLI (6) → ReelStudio, the web app (5) → the pipelines and
// servers ReelLive, ReelRecord, ReelExport, ReelOrigin, ReelMaterials, ReelBackup (4) → ReelMedia, ReelStore, ReelVision,
// ReelCompose, ReelBooks, ReelHTTP, ReelS3 (3) → ReelCore (rules and values) and ReelRuntime (threads, queues, clocks,
// durable files) (2), with ReelHLS (HLS playlists: values, writer, parser) under ReelCore → C bridges (1). A target
// depends only on targets of lower layers (ReelRuntime on ReelCore, ReelCore on ReelHLS), and each target's
// dependencies below are exactly what its sources import;
// docs/architecture.md has the map and the reasons. Sources/ holds what `reel` is built from;
// Tests/ the tests and their tooling (ReelTestSupport, ReelHarness, ReelPrivacyBench). The
// benchmark programs are a package of their own, bench/swift, which uses this one's products,
// so neither `swift build` nor `swift build --build-tests` here compiles them.
let package = Package(
    name: "Reel",
    products: [
        .executable(name: "reel", targets: ["reel"]),
        .library(name: "ReelCore", targets: ["ReelCore"]),
        .library(name: "ReelHLS", targets: ["ReelHLS"]),
        .library(name: "ReelMedia", targets: ["ReelMedia"]),
        .library(name: "ReelLive", targets: ["ReelLive"]),
        .library(name: "ReelRecord", targets: ["ReelRecord"]),
        .library(name: "ReelExport", targets: ["ReelExport"]),
        .library(name: "ReelStore", targets: ["ReelStore"]),
        .library(name: "ReelBackup", targets: ["ReelBackup"]),
        .library(name: "ReelOrigin", targets: ["ReelOrigin"]),
        .library(name: "ReelHTTP", targets: ["ReelHTTP"]),
        .library(name: "ReelS3", targets: ["ReelS3"]),
        .library(name: "ReelStudio", targets: ["ReelStudio"]),
        .library(name: "ReelCompose", targets: ["ReelCompose"]),
        .library(name: "ReelVision", targets: ["ReelVision"]),
        .library(name: "ReelCinematic", targets: ["ReelCinematic"]),
        .library(name: "ReelBooks", targets: ["ReelBooks"]),
        // Test and benchmark tooling (Tests/), for the benchmark package bench/swift.
        .library(name: "ReelHarness", targets: ["ReelHarness"]),
        .library(name: "ReelPrivacyBench", targets: ["ReelPrivacyBench"]),
    ],
    targets: [
        // Layer 1: C bridge. Debian's FFmpeg 5.1 headers live on the default include path;
        // the shim wraps the macros and inline helpers Swift cannot import. libavdevice is not
        // linked but loaded when a device is opened (linked, its dependencies took every command's
        // start-up from 54 to 81 ms: 186 → 254 shared libraries).
        .target(
            name: "CFFmpeg",
            linkerSettings: [
                .linkedLibrary("avformat"), .linkedLibrary("avcodec"),
                .linkedLibrary("swscale"), .linkedLibrary("swresample"), .linkedLibrary("avutil"),
            ]
        ),
        // Layer 1: libmicrohttpd (HTTP server) and zlib (gzip), Debian packages found by pkg-config;
        // each header wraps the variadic functions and macros Swift cannot call.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Layer 1: Linux system calls glibc does not wrap (openat2), as static inline C.
        .systemLibrary(name: "CLinux"),
        // Layer 1: SQLite 3 (the study library); the header wraps SQLITE_TRANSIENT (a macro).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Layer 1: libcrypto's EVP digests (backup checksums, SHA-256 streamed; SigV4's SHA-256 and HMAC).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Layer 1: xxHash's XXH3-128 (backup checksums: ~20x SHA-256's speed; SHA-256 stays for
        // reading format-1 backups).
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        // Layer 1: FreeType + HarfBuzz (captions; one module, hb-ft.h includes FreeType) and libpng
        // (stamps, watermarks; only the png_image API, which needs no setjmp).
        .systemLibrary(name: "CText", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev", "libfreetype-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // Layer 1: OpenCV 4.6 (Debian libopencv-dev) behind a plain C API (C++ shim): CenterFace
        // through the DNN module, Haar cascades, HOG, optical flow. Only the modules used are linked (pkg-config
        // opencv4 lists every contrib module); the include path is Debian's fixed one.
        .target(
            name: "CVision",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [
                .linkedLibrary("opencv_dnn"), .linkedLibrary("opencv_objdetect"), .linkedLibrary("opencv_video"),
                .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core"), .linkedLibrary("stdc++"),
            ]
        ),
        // Layer 1: ZBar (Debian libzbar-dev) for EAN-13 barcodes on books; the header wraps zbar_fourcc (a macro).
        .target(name: "CBuildInfo"),
        // Layer 1: stills and colour (ReelImage): lcms2, libpng (artwork with its ICC profile),
        // libjpeg-turbo, libtiff, libexif, and libheif (loaded with dlopen on first use). A C target: libpng and libjpeg report errors by
        // longjmp and libtiff by handlers, which stay inside C; Swift gets a status and a message.
        .target(
            name: "CImage",
            linkerSettings: [
                .linkedLibrary("lcms2"), .linkedLibrary("png16"), .linkedLibrary("jpeg"),
                .linkedLibrary("tiff"), .linkedLibrary("exif"),
            ]
        ),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        // Layer 2, below ReelCore: HLS playlists as values (media and multivariant), their writer
        // and the one parser every reader uses. Foundation only; pure like ReelCore.
        .target(name: "ReelHLS"),
        // Layer 2: every rule of docs/behaviour.md that is arithmetic or a state machine.
        .target(name: "ReelCore", dependencies: ["ReelHLS"], linkerSettings: [.linkedLibrary("m")]),
        // Layer 2, beside ReelCore: how pipelines run — worker threads, bounded queues, the
        // fan-out, the clock (real or virtual) supervisors run on, the stop signal, and
        // DurableFile, the one way a file is placed durably (fsync, rename, folder fsync).
        // ReelCore keeps rules and values only (no threads, locks, clocks, sleeps or I/O;
        // ReelCoreTests' purity test greps for them); ReelRuntime uses its values (MediaTime,
        // ErrorSentence).
        .target(name: "ReelRuntime", dependencies: ["CLinux", "ReelCore"]),
        // Layer 3: FFmpeg-backed media (sources, encoders, segmenter, MP4 writer).
        .target(name: "ReelMedia", dependencies: ["CFFmpeg", "CLinux", "ReelCore", "ReelRuntime"]),
        // Layer 3: the store: a small SQLite wrapper and the study library (sessions, tags).
        .target(name: "ReelStore", dependencies: ["CSQLite", "ReelRuntime", "ReelCore"]),
        // Layer 3: export pixel work on borrowed 4:2:0 pictures: mosaic, stamps, watermark, captions.
        .target(name: "ReelCompose", dependencies: ["CText", "CPNG", "ReelCore"]),
        // Layer 3: stills and colour: ICC profiles (Display P3 made in code), artwork, compositing in
        // linear Display P3, HEIC/JPEG/TIFF encoders with EXIF. Knows no video frames.
        .target(name: "ReelImage", dependencies: ["CImage", "ReelCore"]),
        // Layer 3: detectors (faces, upper bodies) over CVision; boxes as ReelCore.Detection.
        .target(name: "ReelVision", dependencies: ["CVision", "ReelCore"]),
        // Layer 3: study materials: EAN-13 barcodes (ZBar) in grey pictures, book lookup (openBD,
        // then the National Diet Library) over HTTP with a disk cache. Knows no video frames.
        .target(name: "ReelBooks", dependencies: ["CZBar", "ReelRuntime", "ReelCore"]),
        // Layer 4: a book's way into the library: barcode scan → lookup → cover → insert.
        .target(name: "ReelMaterials", dependencies: ["ReelBooks", "ReelStore", "ReelMedia", "ReelRuntime", "ReelCore"]),
        // Layer 4: the cinematic camera: subjects and mattes (ReelVision) → layers → focus →
        // rack → the depth-dependent blur, on each picture.
        .target(name: "ReelCinematic", dependencies: ["ReelImage", "ReelVision", "ReelMedia", "ReelRuntime", "ReelCore"]),
        // Layer 4: the overlay camera (`reel overlay`): a camera picture → portrait → the preview's
        // crop → artwork laid over it in linear P3 → a HEIC, JPEG or TIFF photo; the artwork library
        // (files beside the study library, records in it).
        .target(name: "ReelOverlay", dependencies: ["ReelImage", "ReelVision", "ReelMedia", "ReelStore", "ReelRuntime", "ReelCore"]),
        // Layer 4: faces found and covered on moving pictures, for the export and the live stream
        // alike: the detection thread (detectors and tracker, the look-back's held pictures), the
        // small-face search, the covers.
        .target(name: "ReelPrivacy", dependencies: ["ReelVision", "ReelCompose", "ReelMedia", "ReelRuntime", "ReelCore"]),
        // Layer 4: pipelines (live HLS recorder, publisher and its targets: origin, S3 bucket, folder;
        // faces covered before encoding with ReelPrivacy).
        .target(name: "ReelLive", dependencies: ["ReelPrivacy", "ReelVision", "ReelCompose", "ReelS3", "ReelRuntime", "ReelMedia", "ReelHLS", "ReelCore"]),
        // Layer 4: the study recorder (active-time timelapse and full recording, crash-safe).
        .target(name: "ReelRecord", dependencies: ["ReelRuntime", "ReelMedia", "ReelVision", "ReelStore", "ReelCore"]),
        // Layer 4: the privacy export (`reel export`, `reel review`): decode → face boxes (stored
        // track or detection) → edits → ReelCompose → H.264 → MP4 with the audio copied.
        .target(name: "ReelExport", dependencies: ["ReelPrivacy", "ReelRuntime", "ReelMedia", "ReelVision", "ReelCompose", "ReelCore"]),
        // Layer 3: an HTTP server on libmicrohttpd for the origin and the studio: the daemon, its
        // bounds and deadlines, the access log, responses (bytes, files, prepared, streams); the
        // HTTP rules both servers apply (Rules/: framing, ranges, entity tags, uploads, auth
        // failures), pure values.
        .target(name: "ReelHTTP", dependencies: ["CMicroHTTPD", "ReelRuntime", "ReelCore"]),
        // Layer 3: the S3 client (S3Client over HTTPUploadSession, S3Error) and its parts: SigV4
        // (canonical text, and signing on libcrypto), credentials and their loading, s3:// locations,
        // signed requests, the XML of errors, object lists and multipart uploads. Used by ReelLive's
        // bucket target and ReelBackup; knows nothing of live streams or backups.
        .target(name: "ReelS3", dependencies: ["CCrypto", "ReelCore"]),
        // Layer 4: the study library's backup and restore (`reel backup`, `reel restore`): to a
        // folder (durable copies, checksums on the way) or an S3 bucket (ReelS3's client:
        // multipart, resumable); the rules are ReelCore's (Backup/).
        .target(name: "ReelBackup", dependencies: ["ReelStore", "ReelS3", "CCrypto", "CXXHash", "CLinux", "ReelRuntime", "ReelCore"]),
        // Layer 4: the origin server (`reel serve`): stores PUTs, serves HLS; its rules (Rules/:
        // routes, blocking reload, the answer cache) are pure values.
        .target(name: "ReelOrigin", dependencies: ["ReelHTTP", "ReelCore", "ReelRuntime", "CZlib", "CLinux"]),
        // Layer 5: Reel Studio (`reel studio`), the local web app: its gate, page, JSON API and
        // event stream on ReelHTTP; it runs the pipelines the command line runs (a recording is
        // ReelRecord's StudyRecorder), so neither holds a rule the other lacks.
        .target(name: "ReelStudio", dependencies: ["ReelCinematic", "ReelOverlay", "ReelImage", "ReelCompose", "ReelVision", "ReelLive", "ReelRecord", "ReelExport", "ReelMaterials", "ReelBooks", "ReelHTTP", "ReelBackup", "ReelStore", "ReelMedia", "ReelRuntime", "ReelCore"],
                resources: [.embedInCode("Page/Assets")]),
        // Layer 6: the command line: parses, wires, reports.
        .target(name: "ReelCLI", dependencies: ["ReelOverlay", "ReelCinematic", "ReelImage", "ReelLive", "ReelS3", "ReelRecord", "ReelExport", "ReelOrigin", "ReelHTTP", "ReelStudio", "ReelBackup", "ReelStore", "ReelMedia", "ReelVision", "ReelBooks", "ReelMaterials", "ReelRuntime", "ReelCore", "CBuildInfo"]),
        .executableTarget(name: "reel", dependencies: ["ReelCLI"]),

        .testTarget(name: "ReelRuntimeTests", dependencies: ["ReelRuntime", "ReelCore", "ReelTestSupport"]),
        .testTarget(name: "ReelCoreTests", dependencies: ["ReelCore", "ReelHLS", "ReelTestSupport"], resources: [.copy("Golden")]),
        .testTarget(name: "ReelHLSTests", dependencies: ["ReelHLS"], resources: [.copy("Fixtures")]),
        // Helpers for tests only: subprocesses (ffprobe, ffmpeg, nginx), origins, moto, golden
        // files; it re-exports ReelHarness.
        .target(name: "ReelTestSupport", dependencies: ["ReelHarness"], path: "Tests/ReelTestSupport"),
        // What the tests and the benchmark programs share, so that a benchmark never depends on
        // the test support: a W3C WebDriver client for chromedriver (headless chromium) with what
        // it stands on (loopback ports, temporary folders, blocking calls on a thread of their
        // own), and SplitMix64, the seeded generator of reproducible test data. Under Tests/
        // beside the test support: tooling, never linked by the product.
        .target(name: "ReelHarness", path: "Tests/ReelHarness"),
        // Benchmark and test tooling (privacy): test clips with known face boxes and the leak
        // meter, over the ffmpeg/ffprobe CLIs; Foundation only. Never linked by the product, hence
        // under Tests/ beside the test support (Sources/ holds what `reel` is built from); used by
        // ReelExportTests, ReelLiveTests (the live stream's faces), ReelPrivacyBenchTests and bench/swift's reel-privacy-bench.
        // Optimized even in debug builds: the meter walks every pixel around the faces of every
        // frame. (SwiftPM refuses unsafeFlags only in packages it fetches; bench/swift depends on
        // this package by path, where they are allowed.)
        .target(name: "ReelPrivacyBench", path: "Tests/ReelPrivacyBench", swiftSettings: [.unsafeFlags(["-O"])]),
        .testTarget(name: "ReelMediaTests", dependencies: ["ReelMedia", "ReelCore", "CFFmpeg", "ReelTestSupport"]),
        .testTarget(name: "ReelLiveTests", dependencies: ["ReelLive", "ReelPrivacy", "ReelVision", "ReelS3", "ReelMedia", "ReelRuntime", "ReelCore", "CFFmpeg", "ReelTestSupport", "ReelPrivacyBench"]),
        .testTarget(name: "ReelExportTests", dependencies: ["ReelExport", "ReelMedia", "ReelVision", "ReelStore", "ReelCore", "ReelTestSupport", "ReelPrivacyBench"]),
        .testTarget(name: "ReelRecordTests", dependencies: ["ReelRecord", "ReelStore", "ReelMedia", "ReelRuntime", "ReelCore", "CFFmpeg", "ReelTestSupport"]),
        .testTarget(name: "ReelStoreTests", dependencies: ["ReelStore", "ReelBackup", "ReelCore", "ReelTestSupport"], resources: [.copy("Golden")]),
        .testTarget(name: "ReelCLITests", dependencies: ["ReelCLI", "ReelMedia", "ReelTestSupport"]),
        // The library commands through the real binary; ReelStore to set up libraries, ReelBackup and ReelS3 to read what a backup wrote.
        .testTarget(name: "ReelLibraryCLITests", dependencies: ["ReelStore", "ReelBackup", "ReelS3", "ReelCore", "ReelTestSupport"]),
        .testTarget(name: "ReelComposeTests", dependencies: ["ReelCompose", "ReelCore", "ReelTestSupport"], resources: [.copy("Golden")]),
        .testTarget(name: "ReelVisionTests", dependencies: ["ReelVision", "ReelCore", "ReelTestSupport"]),
        .testTarget(name: "ReelCinematicTests", dependencies: ["ReelCinematic", "ReelVision", "ReelMedia", "ReelCore", "ReelTestSupport"]),
        .testTarget(name: "ReelPrivacyBenchTests", dependencies: ["ReelPrivacyBench", "ReelTestSupport"]),
        .testTarget(name: "ReelBooksTests", dependencies: ["ReelBooks", "ReelCore", "ReelTestSupport"]),
        .testTarget(name: "ReelStudioTests", dependencies: ["ReelStudio", "ReelCinematic", "ReelOverlay", "ReelImage", "ReelRecord", "ReelBackup", "ReelStore", "ReelBooks", "ReelHTTP", "ReelMedia", "ReelCore", "ReelTestSupport", "ReelPrivacyBench"]),
        .testTarget(name: "ReelImageTests", dependencies: ["ReelImage", "ReelCore", "ReelTestSupport"]),
        // Scripts/stills.py: the independent reader of the photos (and maker of test pictures).
        .testTarget(name: "ReelOverlayTests", dependencies: ["ReelOverlay", "ReelImage", "ReelVision", "ReelMedia", "ReelStore", "ReelCore", "ReelTestSupport"],
                    exclude: ["Scripts"]),
        // Pure and fast: the HTTP rules and the S3 client's values, no server, no network.
        .testTarget(name: "ReelHTTPTests", dependencies: ["ReelHTTP", "ReelCore", "ReelTestSupport"]),
        .testTarget(name: "ReelS3Tests", dependencies: ["ReelS3", "ReelCore"]),
        .testTarget(name: "ReelOriginTests", dependencies: ["ReelOrigin", "ReelHTTP", "ReelRuntime", "ReelCore", "CZlib", "ReelTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
