/// One option a command accepts.
struct OptionSpec {
    /// Long name without dashes ("format"); the key under which its values are found.
    var name: String
    /// A one-letter alias ("o" for -o), if any.
    var short: Character?
    /// What its value is called in help ("FILE"); nil for a flag that takes no value.
    var valueName: String?
    var help: String

    static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    static func value(_ name: String, _ valueName: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help)
    }
}

/// What a command is and how it is called; the help text is built from it.
struct CommandSpec {
    var name: String
    var abstract: String
    var arguments: String
    var discussion: String = ""
    var options: [OptionSpec]

    var usageLine: String { "usage: bluetape \(name) \(arguments)" }

    var help: String {
        var text = "\(abstract)\n\n\(usageLine)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let all = options + [.flag("help", short: "h", "Show this help.")]
        text += "\noptions:\n"
        let labels = all.map { option -> String in
            var label = option.short.map { "-\($0), " } ?? "    "
            label += "--\(option.name)"
            if let value = option.valueName { label += " \(value)" }
            return label
        }
        let width = min((labels.map(\.count).max() ?? 0) + 2, 34)
        for (label, option) in zip(labels, all) {
            let padding = String(repeating: " ", count: max(width - label.count, 2))
            text += "  \(label)\(padding)\(option.help)\n"
        }
        return text
    }
}

/// The command line after scanning: options by name (in order given), flags, and positionals.
struct ParsedArguments {
    /// The subcommand these are for ("decode"), so that hints can name it.
    var command = ""
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for a repeatable option, with comma-separated lists split.
    func list(_ name: String) -> [String] {
        (values[name] ?? []).flatMap { $0.split(separator: ",").map { String($0).trimmed } }.filter { !$0.isEmpty }
    }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension CommandSpec {
    /// Scans `arguments`: `--name value`, `--name=value`, `-x value`, flags, `--` ends options.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        parsed.command = name
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name: String
            var inlineValue: String?
            let option: OptionSpec?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                option = options.first { $0.name == name }
                if option == nil, name == "help" {
                    parsed.flags.insert("help")
                    continue
                }
            } else {
                let letter = argument.dropFirst()
                guard letter.count == 1 else {
                    throw UsageError("unknown option '\(argument)' (options of '\(self.name)' are listed by --help)")
                }
                option = options.first { $0.short == letter.first }
                name = option?.name ?? String(letter)
                if option == nil, letter == "h" {
                    parsed.flags.insert("help")
                    continue
                }
            }
            guard let option else {
                let suggestion = options.map(\.name).min { editDistance($0, name) < editDistance($1, name) }
                    .flatMap { editDistance($0, name) <= 2 ? $0 : nil }
                throw UsageError(
                    "unknown option '\(argument)' for 'bluetape \(self.name)'"
                        + (suggestion.map { "; did you mean '--\($0)'?" } ?? ""))
            }
            if option.valueName != nil {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("option '--\(option.name)' needs a value (\(option.valueName!))")
                    }
                    value = arguments[index]
                    index += 1
                }
                parsed.values[option.name, default: []].append(value)
            } else {
                if inlineValue != nil { throw UsageError("option '--\(option.name)' takes no value") }
                parsed.flags.insert(option.name)
            }
        }
        return parsed
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}
