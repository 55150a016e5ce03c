// swift-tools-version:6.0
import PackageDescription

// One target per job; the pipeline is described in the README:
// capture file → CaptureFiles → records → BluetoothTracking → events → PayloadDecoders/Layouts → Readings.
let package = Package(
    name: "Bluetape",
    products: [
        .executable(name: "bluetape", targets: ["bluetape"]),
        .library(name: "CaptureFiles", targets: ["CaptureFiles"]),
        .library(name: "PayloadDecoders", targets: ["PayloadDecoders"]),
    ],
    targets: [
        .target(name: "ByteReading"),
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"])]),
        .target(name: "CaptureFiles", dependencies: ["ByteReading", "CPcap"]),
        .target(name: "JSON"),
        .target(name: "BluetoothPackets", dependencies: ["ByteReading"]),
        .target(name: "BluetoothTracking", dependencies: ["ByteReading", "BluetoothPackets", "CaptureFiles"]),
        .target(name: "PayloadDecoders", dependencies: ["ByteReading", "BluetoothPackets"]),
        .target(name: "Layouts", dependencies: ["ByteReading", "BluetoothPackets", "PayloadDecoders", "JSON"]),
        .target(
            name: "Readings",
            dependencies: ["ByteReading", "BluetoothPackets", "BluetoothTracking", "PayloadDecoders", "JSON"]),
        .target(name: "EventOutput", dependencies: ["BluetoothTracking", "JSON"]),
        .target(
            name: "Synthesis",
            dependencies: ["ByteReading", "BluetoothPackets", "CaptureFiles", "PayloadDecoders", "Layouts", "JSON"]),
        .target(name: "GoldenDiff", dependencies: ["JSON"]),
        .target(
            name: "BluetapeCLI",
            dependencies: [
                "CaptureFiles", "JSON", "BluetoothTracking", "EventOutput", "GoldenDiff", "PayloadDecoders", "Layouts",
                "Readings", "Synthesis",
            ]),
        .executableTarget(name: "bluetape", dependencies: ["BluetapeCLI"]),

        .target(name: "TestSupport", dependencies: ["CaptureFiles"], path: "Tests/TestSupport"),
        .testTarget(name: "ByteReadingTests", dependencies: ["ByteReading"]),
        .testTarget(name: "CaptureFilesTests", dependencies: ["CaptureFiles", "TestSupport"]),
        .testTarget(name: "BluetapeCLITests", dependencies: ["BluetapeCLI", "TestSupport"]),
        .testTarget(
            name: "PayloadDecodersTests", dependencies: ["PayloadDecoders", "ByteReading", "BluetoothPackets", "TestSupport"]),
        .testTarget(name: "LayoutsTests", dependencies: ["Layouts", "TestSupport"]),
        .testTarget(name: "GoldenDiffTests", dependencies: ["GoldenDiff", "TestSupport", "BluetapeCLI"]),
        .testTarget(
            name: "SynthesisTests",
            dependencies: ["Synthesis", "CaptureFiles", "BluetoothTracking", "PayloadDecoders", "Readings", "TestSupport"]),
        .testTarget(
            name: "RobustnessTests",
            dependencies: [
                "ByteReading", "CaptureFiles", "BluetoothPackets", "BluetoothTracking", "EventOutput", "PayloadDecoders",
                "Layouts", "JSON", "Readings", "Synthesis", "GoldenDiff", "BluetapeCLI", "TestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
