import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// Parameters: their declarations, the values given for them, and "$name" references.
extension LayoutCompiler {
    /// A value from the file, or from a parameter when written "$name".
    enum Resolved {
        case value(JSONValue)
        case missing
        case invalid
    }

    mutating func resolve(_ value: JSONValue, _ path: String) -> Resolved {
        guard case .string(let text) = value, text.hasPrefix("$") else { return .value(value) }
        let name = String(text.dropFirst())
        guard parameterDefinitions.contains(where: { $0.name == name }) else {
            diagnostics.error(
                path,
                "no parameter named '\(name)'" + suggestion(for: name, in: parameterDefinitions.map(\.name))
                    + (parameterDefinitions.isEmpty ? " (declare it under \"parameters\")" : ""))
            return .invalid
        }
        guard let resolved = parameterValues[name] else { return .missing }
        return .value(resolved)
    }

    mutating func parseParameters(_ value: JSONValue?) {
        var seen: Set<String> = []
        if let value {
            guard let object = value.object else {
                diagnostics.error("$.parameters", "parameters must be an object of name → {type, default, description}")
                return
            }
            for (name, definition) in object.entries {
                let path = "$.parameters." + name
                seen.insert(name)
                if !isSnakeCase(name) { diagnostics.error(path, "parameter name \"\(name)\" is not snake_case") }
                guard let spec = definition.object else {
                    diagnostics.error(path, "a parameter is an object with \"type\" and an optional \"default\"")
                    continue
                }
                checkKeys(spec, path, allowed: Self.parameterKeys, kind: "a parameter")
                let typeName = string(spec["type"], path + ".type", "type") ?? ""
                // Per-device keys are a built-in decoder's kind of parameter; a layout has no use for them.
                guard let type = LayoutParameter.Kind(rawValue: typeName), type != .keys else {
                    diagnostics.error(
                        path + ".type",
                        spec["type"] == nil
                            ? "a parameter needs a \"type\": uuid, integer, string or hex"
                            : "unknown parameter type '\(typeName)'; use uuid, integer, string or hex")
                    continue
                }
                var defaultText: String?
                if let d = spec["default"] {
                    switch d {
                    case .string(let s): defaultText = s
                    case .number(let n): defaultText = n
                    default: diagnostics.error(path + ".default", "a default is a string or a number")
                    }
                    if let text = defaultText, type.parse(text) == nil {
                        diagnostics.error(path + ".default", "\"\(text)\" is not a valid \(type.rawValue)")
                    }
                }
                let given = overrides[name]
                if let given, type.parse(given) == nil {
                    diagnostics.error(
                        path, "the value \"\(given)\" given for '\(name)' is not a valid \(type.rawValue)")
                }
                let parameter = LayoutParameter(
                    name: name, kind: type, defaultValue: defaultText, value: given ?? defaultText,
                    summary: spec["description"]?.string ?? "")
                parameterDefinitions.append(parameter)
                if let text = parameter.value, let parsed = type.parse(text) {
                    parameterValues[name] = parsed
                } else if parameter.value == nil {
                    missingParameters.append(name)
                    if requireParameters {
                        diagnostics.error(
                            path,
                            "parameter '\(name)' has no default and no value was given "
                                + "(give one, e.g. bluetape decode --param \(name)=…)")
                    }
                }
            }
        }
        for name in overrides.keys.sorted() where !seen.contains(name) {
            diagnostics.error(
                "$.parameters",
                "a value was given for '\(name)', but the layout has no such parameter"
                    + suggestion(for: name, in: seen)
                    + (seen.isEmpty ? "" : " (parameters: \(seen.sorted().joined(separator: ", ")))"))
        }
    }
}
