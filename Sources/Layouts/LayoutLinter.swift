/// Checks layout files and reports every problem with its file, line and JSON path.
///
/// The linter and `Layout.load` run the same checks, so a file that lints without errors loads.
public enum LayoutLinter {
    /// Lints a layout document. `name` is the file name used in the issues.
    ///
    /// Parameters without a default are not required here: a layout file is complete without
    /// them; only decoding needs their values.
    public static func lint(
        bytes: [UInt8], name: String, builtInIDs: [String] = Layout.builtInIDs, parameters: [String: String] = [:]
    ) -> [LintIssue] {
        LayoutCompiler.compile(
            bytes: bytes, file: name, builtInIDs: Set(builtInIDs), overrides: parameters, requireParameters: false
        ).1
    }

    /// Lints a file; an unreadable file is one issue at line 0.
    public static func lint(
        path: String, builtInIDs: [String] = Layout.builtInIDs, parameters: [String: String] = [:]
    )
        -> [LintIssue]
    {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path)
        } catch {
            let reason = if case .unreadable(_, let reason) = error { reason } else { "\(error)" }
            return [LintIssue(file: path, line: 0, path: "$", message: "cannot read: \(reason)")]
        }
        return lint(bytes: bytes, name: path, builtInIDs: builtInIDs, parameters: parameters)
    }
}
