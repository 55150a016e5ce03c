// swift-tools-version:6.0
import PackageDescription

// One target per job; the pipeline is described in the README:
// capture file → CaptureFiles → records → BluetoothTracking → events → PayloadDecoders/Layouts → Readings.
// No target sets unsafe flags, so every library product can be a versioned dependency. The
// per-record state that runtime exclusivity checks would slow down is marked
// `@exclusivity(unchecked)` where it lives, one property at a time.

let package = Package(
    name: "Bluetape",
    products: [
        .executable(name: "bluetape", targets: ["bluetape"]),
        // Reading captures, events and readings in one call (no libpcap: add PcapFiles for pcap).
        .library(name: "Bluetape", targets: ["Bluetape"]),
        // With the modules its API speaks in: the bounds-checked reader and its errors, UUIDs and addresses.
        .library(name: "PayloadDecoders", targets: ["PayloadDecoders", "ByteReading", "BluetoothPackets"]),
        .library(name: "Layouts", targets: ["Layouts"]),
        .library(name: "BluetapeReplay", targets: ["Replay"]),
        .library(name: "CaptureFiles", targets: ["CaptureModel", "CaptureFiles"]),
        .library(name: "PcapFiles", targets: ["PcapFiles"]),
    ],
    targets: [
        .target(name: "ByteReading"),
        .target(name: "SystemIO"),
        // libpcap's and libcrypto's headers (libpcap-dev, libssl-dev); the libraries themselves are
        // opened when first needed (CPcap/shim.h, CCrypto/shim.h), so they are not linked.
        .systemLibrary(name: "CPcap"),
        .systemLibrary(name: "CCrypto"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CaptureModel"),
        .target(name: "CaptureFiles", dependencies: ["ByteReading", "CaptureModel", "CZlib"]),
        .target(name: "PcapFiles", dependencies: ["CaptureModel", "CaptureFiles", "CPcap", "FileAccess"]),
        .target(name: "JSON", dependencies: ["SystemIO"]),
        .target(name: "BluetoothPackets", dependencies: ["ByteReading"]),
        .target(name: "BluetoothTracking", dependencies: ["ByteReading", "BluetoothPackets", "CaptureModel"]),
        .target(
            name: "PayloadDecoders",
            // libcrypto (AES-CCM for encrypted BTHome) where it is installed like libpcap; an iOS
            // app links PayloadDecoders without it, and a bindkey there says it cannot decrypt.
            dependencies: ["ByteReading", "BluetoothPackets", .target(name: "CCrypto", condition: .when(platforms: [.linux]))]),
        .target(name: "FieldJSON", dependencies: ["ByteReading", "PayloadDecoders", "JSON"]),
        .target(name: "FileAccess", dependencies: ["SystemIO"]),
        .target(
            name: "Layouts", dependencies: ["ByteReading", "BluetoothPackets", "PayloadDecoders", "JSON", "FieldJSON", "FileAccess"]),
        .target(
            name: "Readings",
            dependencies: ["ByteReading", "BluetoothPackets", "BluetoothTracking", "PayloadDecoders", "JSON", "FieldJSON"]),
        .target(name: "EventOutput", dependencies: ["BluetoothTracking", "CaptureModel", "JSON"]),
        .target(
            name: "Synthesis",
            dependencies: [
                "ByteReading", "BluetoothPackets", "CaptureModel", "CaptureFiles", "PayloadDecoders", "Layouts", "JSON",
                "FileAccess",
            ]),
        .target(name: "Scrub", dependencies: ["ByteReading", "BluetoothPackets", "BluetoothTracking", "CaptureModel"]),
        .target(name: "GoldenDiff", dependencies: ["JSON", "Handoff", "FileAccess", "SystemIO"]),
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
            name: "Statistics",
            dependencies: [
                "BluetoothPackets", "BluetoothTracking", "CaptureFiles", "ByteReading", "PayloadDecoders", "Layouts", "Readings",
                "JSON", "CaptureModel",
            ]),
        .target(
            name: "Report",
            dependencies: [
                "BluetoothPackets", "BluetoothTracking", "ByteReading", "JSON", "PayloadDecoders", "Readings", "Statistics",
            ]),
        .target(
            name: "BluetapeCLI",
            dependencies: [
                "Bluetape", "CaptureModel", "CaptureFiles", "PcapFiles", "JSON", "FieldJSON", "SystemIO", "BluetoothTracking",
                "EventOutput", "GoldenDiff", "PayloadDecoders", "Layouts", "Readings", "Synthesis", "Handoff", "Replay",
                "FileAccess", "ByteReading", "Scrub", "Statistics", "Report",
            ]),
        .executableTarget(name: "bluetape", dependencies: ["BluetapeCLI"]),

        .target(name: "TestSupport", dependencies: ["ByteReading", "CaptureModel", "CaptureFiles", "PcapFiles", "CZlib"], path: "Tests/TestSupport"),
        .testTarget(name: "ByteReadingTests", dependencies: ["ByteReading"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(name: "HandoffTests", dependencies: ["Handoff"]),
        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess", "TestSupport"]),
        .testTarget(name: "SystemIOTests", dependencies: ["SystemIO", "TestSupport"]),
        .testTarget(name: "CaptureFilesTests", dependencies: ["CaptureModel", "CaptureFiles", "TestSupport"]),
        .testTarget(name: "BluetapeCLITests", dependencies: ["BluetapeCLI", "CaptureModel", "CaptureFiles", "TestSupport"]),
        .testTarget(
            name: "PayloadDecodersTests",
            dependencies: ["PayloadDecoders", "ByteReading", "BluetoothPackets", "TestSupport", "JSON"]),
        .testTarget(name: "LayoutsTests", dependencies: ["Layouts", "TestSupport"]),
        .testTarget(
            name: "GoldenDiffTests", dependencies: ["GoldenDiff", "TestSupport", "BluetapeCLI", "Readings", "PayloadDecoders", "ByteReading"]),
        .testTarget(
            name: "SynthesisTests",
            dependencies: [
                "Synthesis", "CaptureModel", "CaptureFiles", "BluetoothTracking", "PayloadDecoders", "Readings", "TestSupport",
            ]),
        .testTarget(name: "BluetoothPacketsTests", dependencies: ["BluetoothPackets", "ByteReading", "TestSupport"]),
        .testTarget(
            name: "ScrubTests",
            dependencies: [
                "Scrub", "BluetapeCLI", "BluetoothPackets", "BluetoothTracking", "ByteReading", "CaptureModel", "CaptureFiles",
                "PcapFiles", "JSON", "SystemIO", "TestSupport",
            ]),
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
                "Layouts", "JSON", "Readings", "Synthesis", "GoldenDiff", "Bluetape", "BluetapeCLI", "TestSupport",
            ]),
        .testTarget(
            name: "StatisticsTests",
            dependencies: [
                "Statistics", "BluetoothTracking", "BluetoothPackets", "Readings", "PayloadDecoders", "BluetapeCLI", "JSON",
                "SystemIO", "TestSupport",
            ]),
        .testTarget(
            name: "ReportTests",
            dependencies: [
                "Report", "Statistics", "BluetoothTracking", "Readings", "PayloadDecoders", "BluetapeCLI", "JSON", "SystemIO",
                "TestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
