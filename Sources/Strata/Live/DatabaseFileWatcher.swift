import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls back when a database's files change on disk, so that a commit by another process shows
/// in milliseconds rather than at the next scheduled check: inotify on the file's folder on
/// Linux, a vnode source on the WAL on Apple platforms. It says only that something may have
/// changed; the monitor's check decides what did. Without it (an in-memory database, a platform
/// or file system that does not notify), the scheduled check is all there is.
final class DatabaseFileWatcher: @unchecked Sendable {
  private var sources: [any DispatchSourceProtocol] = []

  /// Watches the files of the database at `path` for the events that follow a commit: a write
  /// of its WAL (in WAL mode, where a check never holds up a writer), and the deletion of its
  /// rollback journal (the end of a commit in the default journal mode; a check during the
  /// commit would hold up the writer's exclusive lock, so the journal's other events are not
  /// followed). Nil when the platform cannot watch them.
  init?(path: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
    guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return nil }
    let url = URL(fileURLWithPath: path)
    let wal = url.lastPathComponent + "-wal"
    let journal = url.lastPathComponent + "-journal"
    #if canImport(Glibc)
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    let mask = UInt32(IN_MODIFY | IN_DELETE)
    guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, mask) >= 0 else {
      close(descriptor)
      return nil
    }
    let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
    source.setEventHandler {
      // Events are `inotify_event` headers, each followed by its name's bytes.
      var buffer = [UInt8](repeating: 0, count: 4096)
      var changed = false
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        var offset = 0
        // `wd`, `mask`, `cookie` and `len`: four 32-bit fields.
        let header = 16
        while offset + header <= count {
          let (eventMask, length) = buffer.withUnsafeBytes {
            ($0.load(fromByteOffset: offset + 4, as: UInt32.self), Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)))
          }
          let name = String(decoding: buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }, as: UTF8.self)
          if name == wal && eventMask & UInt32(IN_MODIFY) != 0 || name == journal && eventMask & UInt32(IN_DELETE) != 0 {
            changed = true
          }
          offset += header + length
        }
      }
      if changed { onChange() }
    }
    source.setCancelHandler { close(descriptor) }
    source.resume()
    sources = [source]
    #elseif canImport(Darwin)
    // The WAL only: a vnode source follows one file, and a rollback journal comes and goes.
    let descriptor = open(url.deletingLastPathComponent().appendingPathComponent(wal).path, O_EVTONLY)
    guard descriptor >= 0 else { return nil }
    let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: descriptor, eventMask: [.write, .extend], queue: queue)
    source.setEventHandler { onChange() }
    source.setCancelHandler { close(descriptor) }
    source.resume()
    sources = [source]
    #else
    return nil
    #endif
  }

  func cancel() {
    for source in sources { source.cancel() }
    sources = []
  }

  deinit { cancel() }
}
