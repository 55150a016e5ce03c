// swift-tools-version:6.0
import PackageDescription

// One target per job; see DESIGN.md in the README for the pipeline.
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
        .target(name: "PayloadDecoders", dependencies: ["ByteReading", "BluetoothPackets"]),
        .target(name: "BluetoothTracking", dependencies: ["ByteReading", "BluetoothPackets", "CaptureFiles"]),
        .target(name: "EventOutput", dependencies: ["BluetoothTracking", "JSON"]),
        .target(name: "BluetapeCLI", dependencies: ["CaptureFiles", "JSON", "BluetoothTracking", "EventOutput"]),
        .executableTarget(name: "bluetape", dependencies: ["BluetapeCLI"]),

        .target(name: "TestSupport", dependencies: ["CaptureFiles"], path: "Tests/TestSupport"),
        .testTarget(name: "ByteReadingTests", dependencies: ["ByteReading"]),
        .testTarget(name: "CaptureFilesTests", dependencies: ["CaptureFiles", "TestSupport"]),
        .testTarget(name: "BluetapeCLITests", dependencies: ["BluetapeCLI", "TestSupport"]),
        .testTarget(name: "PayloadDecodersTests", dependencies: ["PayloadDecoders", "TestSupport"]),
        .testTarget(name: "BluetoothPacketsTests", dependencies: ["BluetoothPackets", "ByteReading"]),
        .testTarget(
            name: "BluetoothTrackingTests",
            dependencies: [
                "BluetoothTracking", "BluetoothPackets", "TestSupport", "CaptureFiles", "ByteReading", "JSON", "EventOutput",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
