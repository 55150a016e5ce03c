// swift-tools-version:6.0
import Foundation
import PackageDescription

// An app's view of Bluetape: characteristic values as CoreBluetooth delivers them, decoded with the
// decoders CI checks against captures. By default it builds against the checkout it sits in; with
// BLUETAPE_PACKAGE_URL set, against that repository by version, as a released app would
// (`scripts/test-consumer` does that with a tagged clone).
let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let bluetape: Package.Dependency
let identity: String
if let url = ProcessInfo.processInfo.environment["BLUETAPE_PACKAGE_URL"] {
    bluetape = .package(url: url, from: "0.1.0")
    identity = URL(string: url)!.deletingPathExtension().lastPathComponent.lowercased()
} else {
    bluetape = .package(path: checkout.path)
    identity = checkout.lastPathComponent.lowercased()
}

let package = Package(
    name: "SensorApp",
    dependencies: [bluetape],
    targets: [
        .target(
            name: "SensorDecoding",
            dependencies: [
                .product(name: "PayloadDecoders", package: identity),
                .product(name: "Layouts", package: identity),
            ]),
        .executableTarget(
            name: "sensor-demo",
            dependencies: [
                "SensorDecoding",
                .product(name: "BluetapeReplay", package: identity),
                .product(name: "Bluetape", package: identity),
            ]),
        .testTarget(name: "SensorDecodingTests", dependencies: ["SensorDecoding"]),
    ],
    swiftLanguageModes: [.v6]
)
