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
        .library(name: "Bluetape", targets: ["Bluetape"]),
    ],
    targets: [
        .target(name: "ByteReading"),
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        .target(name: "CaptureModel"),
        .target(name: "CaptureFiles", dependencies: ["ByteReading", "CaptureModel"], swiftSettings: streaming),
        .target(name: "PcapFiles", dependencies: ["CaptureModel", "CaptureFiles", "CPcap", "FileAccess"]),
        .target(name: "JSON", swiftSettings: streaming),
        .target(name: "BluetoothPackets", dependencies: ["ByteReading"]),
        .target(name: "BluetoothTracking", dependencies: ["ByteReading", "BluetoothPackets", "CaptureModel"], swiftSettings: streaming),
        .target(name: "PayloadDecoders", dependencies: ["ByteReading", "BluetoothPackets", "JSON", "CCrypto"]),
        .target(name: "FileAccess"),
        .target(name: "Layouts", dependencies: ["ByteReading", "BluetoothPackets", "PayloadDecoders", "JSON", "FileAccess"]),
        .target(
            name: "Readings",
            dependencies: ["ByteReading", "BluetoothPackets", "BluetoothTracking", "PayloadDecoders", "JSON"],
            swiftSettings: streaming),
        .target(name: "EventOutput", dependencies: ["BluetoothTracking", "CaptureModel", "JSON"], swiftSettings: streaming),
        .target(
            name: "Synthesis",
            dependencies: [
                "ByteReading", "BluetoothPackets", "CaptureModel", "CaptureFiles", "PayloadDecoders", "Layouts", "JSON",
                "FileAccess",
            ]),
        .target(name: "GoldenDiff", dependencies: ["JSON", "Handoff", "FileAccess"]),
        .target(name: "Handoff"),
        .target(
            name: "Bluetape",
            dependencies: [
                "ByteReading", "CaptureModel", "CaptureFiles", "BluetoothPackets", "BluetoothTracking", "PayloadDecoders",
                "Layouts", "Readings", "GoldenDiff", "Handoff", "FileAccess", "JSON",
            ]),
        .target(
            name: "Replay",
            dependencies: [
                "Bluetape", "CaptureModel", "CaptureFiles", "BluetoothTracking", "PayloadDecoders", "Readings", "Handoff",
            ]),
        .target(
            name: "BluetapeCLI",
            dependencies: [
                "Bluetape", "CaptureModel", "CaptureFiles", "PcapFiles", "JSON", "BluetoothTracking", "EventOutput",
                "GoldenDiff", "PayloadDecoders", "Layouts", "Readings", "Synthesis", "Handoff", "Replay", "FileAccess",
            ]),
        .executableTarget(name: "bluetape", dependencies: ["BluetapeCLI"]),

        .target(name: "TestSupport", dependencies: ["ByteReading", "CaptureModel", "CaptureFiles", "PcapFiles"], path: "Tests/TestSupport"),
        .testTarget(name: "ByteReadingTests", dependencies: ["ByteReading"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(name: "HandoffTests", dependencies: ["Handoff"]),
        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess", "TestSupport"]),
        .testTarget(name: "CaptureFilesTests", dependencies: ["CaptureModel", "CaptureFiles", "TestSupport"]),
        .testTarget(name: "BluetapeCLITests", dependencies: ["BluetapeCLI", "CaptureModel", "CaptureFiles", "TestSupport"]),
        .testTarget(
            name: "PayloadDecodersTests",
            dependencies: ["PayloadDecoders", "ByteReading", "BluetoothPackets", "TestSupport", "JSON"]),
        .testTarget(name: "LayoutsTests", dependencies: ["Layouts", "TestSupport"]),
        .testTarget(name: "GoldenDiffTests", dependencies: ["GoldenDiff", "TestSupport", "BluetapeCLI"]),
        .testTarget(
            name: "SynthesisTests",
            dependencies: [
                "Synthesis", "CaptureModel", "CaptureFiles", "BluetoothTracking", "PayloadDecoders", "Readings", "TestSupport",
            ]),
        .testTarget(name: "BluetoothPacketsTests", dependencies: ["BluetoothPackets", "ByteReading", "TestSupport"]),
        .testTarget(
            name: "BluetoothTrackingTests",
            dependencies: [
                "BluetoothTracking", "BluetoothPackets", "TestSupport", "CaptureModel", "CaptureFiles", "ByteReading", "JSON",
                "EventOutput",
            ]),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "Replay", "BluetapeCLI", "BluetoothTracking", "Readings", "CaptureModel", "CaptureFiles", "PcapFiles", "JSON",
                "TestSupport",
            ]),
        .testTarget(
            name: "RobustnessTests",
            dependencies: [
                "ByteReading", "CaptureModel", "CaptureFiles", "BluetoothPackets", "BluetoothTracking", "EventOutput",
                "PayloadDecoders",
                "Layouts", "JSON", "Readings", "Synthesis", "GoldenDiff", "BluetapeCLI", "TestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
