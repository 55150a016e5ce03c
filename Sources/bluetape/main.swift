import BluetapeCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var environment: [String: String] = [:]
var pointer = environ
while let entry = pointer.pointee {
    let text = String(cString: entry)
    if let equals = text.firstIndex(of: "=") {
        environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    pointer += 1
}
signal(SIGPIPE, SIG_IGN)
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), environment: environment))
