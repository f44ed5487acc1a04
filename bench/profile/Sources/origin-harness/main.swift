import Foundation
import ReelOrigin

// origin-harness PORT DATA TOKEN-FILE [ACCESS-LOG]: serves like `reel serve --host 127.0.0.1`
// until killed (no signal handling: valgrind's callgrind_control dumps the counts first).
let arguments = CommandLine.arguments
guard arguments.count >= 4, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: origin-harness PORT DATA TOKEN-FILE [ACCESS-LOG]\n".utf8))
    exit(2)
}
let settings = OriginSettings(host: "127.0.0.1", port: port, dataDirectory: URL(fileURLWithPath: arguments[2]),
                              tokenFile: URL(fileURLWithPath: arguments[3]),
                              accessLog: arguments.count > 4 ? .file(URL(fileURLWithPath: arguments[4])) : .none)
let server = try OriginServer(settings: settings)
try server.start()
print("listening on \(server.baseURL)")
fflush(nil)
while true { sleep(3600) }
