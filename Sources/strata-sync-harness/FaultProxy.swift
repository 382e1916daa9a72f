// The network between the devices and the server, as bad as the harness wants it: an HTTP
// proxy on loopback that, per request, delays it, drops it, cuts it halfway, lets the server
// commit and drops the answer, cuts the answer, sends it twice, or sends it again seconds later
// after newer ones. One request per connection; plain sockets and a thread per connection.
import Foundation

final class FaultProxy: @unchecked Sendable {
  /// The faults, each with its probability per request.
  enum Fault: String, CaseIterable {
    case delay, dropRequest, cutRequest, dropAnswer, cutAnswer, duplicate, replayLater
  }

  let port: Int
  private let upstream: Int
  private let listener: Int32
  private let lock = NSLock()
  // Guarded by `lock`.
  private var faulty = false
  private var counts: [Fault: Int] = [:]
  private var requests = 0

  init(upstream: Int) throws {
    self.upstream = upstream
    port = try freePort()
    listener = try Self.listen(port: port)
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  /// Turns faults on or off for the requests that come next.
  func setFaulty(_ on: Bool) {
    lock.withLock { faulty = on }
  }

  /// How many requests passed, and each fault injected.
  var report: (requests: Int, faults: [Fault: Int]) {
    lock.withLock { (requests, counts) }
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 { continue }
      Thread.detachNewThread { [self] in
        serve(client)
        close(client)
      }
    }
  }

  private func choose() -> Fault? {
    lock.withLock {
      requests += 1
      guard faulty else { return nil }
      let roll = Double.random(in: 0..<1)
      let table: [(Fault, Double)] = [
        (.delay, 0.10), (.dropRequest, 0.04), (.cutRequest, 0.04), (.dropAnswer, 0.05), (.cutAnswer, 0.03), (.duplicate, 0.04),
        (.replayLater, 0.03),
      ]
      var sum = 0.0
      for (fault, probability) in table {
        sum += probability
        if roll < sum {
          counts[fault, default: 0] += 1
          return fault
        }
      }
      return nil
    }
  }

  /// What a gateway answers when it has no answer from the server. (Closing the connection
  /// without any answer instead crashes Linux's URLSession — swift-corelibs-foundation issue
  /// 5285, "Transfer completed, but there's no response", fixed after Swift 6.3 — so the proxy
  /// answers as a load balancer does.)
  private static let badGateway = Array("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)

  private func serve(_ client: Int32) {
    guard let request = Self.readRequest(client) else { return }
    switch choose() {
    case nil:
      forwardOrFail(request, answerTo: client)
    case .delay:
      usleep(UInt32.random(in: 50_000...1_500_000))
      forwardOrFail(request, answerTo: client)
    case .dropRequest:
      _ = Self.write(client, Self.badGateway)
    case .cutRequest:
      if let server = try? Self.connect(port: upstream) {
        _ = Self.write(server, Array(request.prefix(max(1, request.count / 2))))
        close(server)
      }
      _ = Self.write(client, Self.badGateway)
    case .dropAnswer:
      _ = forward(request, answerTo: nil)
      _ = Self.write(client, Self.badGateway)
    case .cutAnswer:
      // The answer's head whole and half its body: the connection lost mid-answer.
      guard let answer = forward(request, answerTo: nil) else { return forwardOrFail(request, answerTo: client) }
      let headEnd = answer.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound ?? answer.count
      _ = Self.write(client, answer.count > headEnd + 1 ? Array(answer.prefix(headEnd + (answer.count - headEnd) / 2)) : answer)
    case .duplicate:
      _ = forward(request, answerTo: nil)
      forwardOrFail(request, answerTo: client)
    case .replayLater:
      forwardOrFail(request, answerTo: client)
      let delay = UInt32.random(in: 1_000_000...5_000_000)
      Thread.detachNewThread { [self] in
        usleep(delay)
        _ = forward(request, answerTo: nil)
      }
    }
  }

  private func forwardOrFail(_ request: [UInt8], answerTo client: Int32) {
    if forward(request, answerTo: client) == nil { _ = Self.write(client, Self.badGateway) }
  }

  /// Sends `request` to the server on a connection of its own and reads the whole answer;
  /// writes it to `client` when given.
  @discardableResult
  private func forward(_ request: [UInt8], answerTo client: Int32?) -> [UInt8]? {
    guard let server = try? Self.connect(port: upstream) else { return nil }
    defer { close(server) }
    guard Self.write(server, request) else { return nil }
    // A server killed before it answered.
    guard let answer = Self.readMessage(server), !answer.isEmpty else { return nil }
    if let client { _ = Self.write(client, answer) }
    return answer
  }

  // MARK: Sockets

  /// Reads one request; its Connection header becomes `close`, so that the server closes the
  /// connection after the answer.
  private static func readRequest(_ socket: Int32) -> [UInt8]? {
    guard let message = readMessage(socket, isRequest: true), let headEnd = message.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return nil }
    let head = String(decoding: message[..<headEnd], as: UTF8.self)
    let lines = head.split(separator: "\r\n").filter { !$0.lowercased().hasPrefix("connection:") }
    return Array((lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n").utf8) + message[headEnd...]
  }

  /// Reads one HTTP message: its head, and a body of its Content-Length (without one, none for
  /// a request, and up to the end of the connection for an answer). Nil when the connection
  /// ends before a whole head.
  private static func readMessage(_ socket: Int32, isRequest: Bool = false) -> [UInt8]? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    var length: Int?
    while true {
      if headEnd == nil, let end = data.firstRange(of: separator)?.upperBound {
        headEnd = end
        let head = String(decoding: data[..<end], as: UTF8.self)
        for line in head.split(separator: "\r\n") {
          let parts = line.split(separator: ":", maxSplits: 1)
          if parts.count == 2, parts[0].lowercased() == "content-length" { length = Int(parts[1].trimmingCharacters(in: .whitespaces)) }
        }
        if isRequest && length == nil { length = 0 }
      }
      if let headEnd, let length, data.count >= headEnd + length { return Array(data[..<(headEnd + length)]) }
      let count = read(socket, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return headEnd == nil ? nil : data }
      data += buffer[0..<count]
    }
  }

  private static func write(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      offset += count
    }
    return true
  }

  private static func address(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    return address
  }

  private static func connect(port: Int) throws -> Int32 {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var timeout = timeval(tv_sec: 90, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = address(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      close(socket)
      throw HarnessError("the server does not answer on \(port)")
    }
    return socket
  }

  private static func listen(port: Int) throws -> Int32 {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = address(port: port)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, Foundation.listen(socket, 256) == 0 else { throw HarnessError("the proxy cannot listen on \(port)") }
    return socket
  }
}
