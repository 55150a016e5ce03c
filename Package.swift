// swift-tools-version:6.0
import PackageDescription

// One target per job; the pipeline is described in the README:
// capture file → CaptureFiles → records → BluetoothTracking → events → PayloadDecoders/Layouts → Readings.
// The streaming stages run per record: in release builds they skip the runtime exclusivity checks
// on class properties (the compiler's static checks stay), which cost a tenth of their time.
let streaming: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "Bluetape",
    products: [
        .executable(name: "bluetape", targets: ["bluetape"]),
        .library(name: "CaptureFiles", targets: ["CaptureFiles"]),
        .library(name: "PayloadDecoders", targets: ["PayloadDecoders"]),
        .library(name: "BluetapeReplay", targets: ["Replay"]),
    ],
    targets: [
        .target(name: "ByteReading"),
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        .target(name: "CaptureFiles", dependencies: ["ByteReading", "CPcap"], swiftSettings: streaming),
        .target(name: "JSON", swiftSettings: streaming),
        .target(name: "BluetoothPackets", dependencies: ["ByteReading"]),
        .target(name: "BluetoothTracking", dependencies: ["ByteReading", "BluetoothPackets", "CaptureFiles"], swiftSettings: streaming),
        .target(name: "PayloadDecoders", dependencies: ["ByteReading", "BluetoothPackets", "JSON"]),
        .target(name: "FileAccess"),
        .target(name: "Layouts", dependencies: ["ByteReading", "BluetoothPackets", "PayloadDecoders", "JSON", "FileAccess"]),
        .target(
            name: "Readings",
            dependencies: ["ByteReading", "BluetoothPackets", "BluetoothTracking", "PayloadDecoders", "JSON"],
            swiftSettings: streaming),
        .target(name: "EventOutput", dependencies: ["BluetoothTracking", "JSON"], swiftSettings: streaming),
        .target(
            name: "Synthesis",
            dependencies: ["ByteReading", "BluetoothPackets", "CaptureFiles", "PayloadDecoders", "Layouts", "JSON", "FileAccess"]),
        .target(name: "GoldenDiff", dependencies: ["JSON", "Handoff", "FileAccess"]),
        .target(name: "Handoff"),
        .target(name: "Replay", dependencies: ["CaptureFiles", "BluetoothTracking", "PayloadDecoders", "Readings", "Handoff"]),
        .target(
            name: "Statistics",
            dependencies: [
                "BluetoothPackets", "BluetoothTracking", "CaptureFiles", "ByteReading", "PayloadDecoders", "Layouts", "Readings",
                "JSON",
            ],
            swiftSettings: streaming),
        .target(
            name: "Report",
            dependencies: ["BluetoothPackets", "BluetoothTracking", "PayloadDecoders", "Readings", "Statistics"],
            swiftSettings: streaming),
        .target(
            name: "BluetapeCLI",
            dependencies: [
                "CaptureFiles", "JSON", "BluetoothTracking", "EventOutput", "GoldenDiff", "PayloadDecoders", "Layouts",
                "Readings", "Synthesis", "Handoff", "Replay", "FileAccess", "CPcap",
                "Statistics", "Report",
            ]),
        .executableTarget(name: "bluetape", dependencies: ["BluetapeCLI"]),

        .target(name: "TestSupport", dependencies: ["ByteReading", "CaptureFiles"], path: "Tests/TestSupport"),
        .testTarget(name: "ByteReadingTests", dependencies: ["ByteReading"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(name: "HandoffTests", dependencies: ["Handoff"]),
        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess", "TestSupport"]),
        .testTarget(name: "CaptureFilesTests", dependencies: ["CaptureFiles", "TestSupport"]),
        .testTarget(name: "BluetapeCLITests", dependencies: ["BluetapeCLI", "TestSupport"]),
        .testTarget(
            name: "PayloadDecodersTests", dependencies: ["PayloadDecoders", "ByteReading", "BluetoothPackets", "TestSupport"]),
        .testTarget(name: "LayoutsTests", dependencies: ["Layouts", "TestSupport"]),
        .testTarget(name: "GoldenDiffTests", dependencies: ["GoldenDiff", "TestSupport", "BluetapeCLI"]),
        .testTarget(
            name: "SynthesisTests",
            dependencies: ["Synthesis", "CaptureFiles", "BluetoothTracking", "PayloadDecoders", "Readings", "TestSupport"]),
        .testTarget(name: "BluetoothPacketsTests", dependencies: ["BluetoothPackets", "ByteReading", "TestSupport"]),
        .testTarget(
            name: "BluetoothTrackingTests",
            dependencies: [
                "BluetoothTracking", "BluetoothPackets", "TestSupport", "CaptureFiles", "ByteReading", "JSON", "EventOutput",
            ]),
        .testTarget(
            name: "ReplayTests",
            dependencies: ["Replay", "BluetapeCLI", "BluetoothTracking", "Readings", "CaptureFiles", "JSON", "TestSupport"]),
        .testTarget(
            name: "RobustnessTests",
            dependencies: [
                "ByteReading", "CaptureFiles", "BluetoothPackets", "BluetoothTracking", "EventOutput", "PayloadDecoders",
                "Layouts", "JSON", "Readings", "Synthesis", "GoldenDiff", "BluetapeCLI", "TestSupport",
            ]),
        .testTarget(
            name: "StatisticsTests",
            dependencies: [
                "Statistics", "BluetoothTracking", "BluetoothPackets", "Readings", "PayloadDecoders", "BluetapeCLI", "JSON",
                "TestSupport",
            ]),
        .testTarget(
            name: "ReportTests",
            dependencies: [
                "Report", "Statistics", "BluetoothTracking", "Readings", "PayloadDecoders", "BluetapeCLI", "JSON", "TestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
