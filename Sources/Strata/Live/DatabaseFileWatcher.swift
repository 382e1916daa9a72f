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
///
/// It follows the events that come with a commit: a write of the WAL (in WAL mode, where a check
/// never holds up a writer), and the deletion of the rollback journal (the end of a commit in the
/// default journal mode; a check during the commit would hold up the writer's exclusive lock, so
/// the journal's other events are not followed).
final class DatabaseFileWatcher: @unchecked Sendable {
  #if canImport(Glibc)
  private var registration: Inotify.Registration?
  #elseif canImport(Darwin)
  private var source: (any DispatchSourceFileSystemObject)?
  #endif

  /// Watches the files of the database at `path`, calling `onChange` on `queue`. Nil when the
  /// platform cannot watch them.
  init?(path: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
    guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return nil }
    let url = URL(fileURLWithPath: path)
    let wal = url.lastPathComponent + "-wal"
    #if canImport(Glibc)
    let journal = url.lastPathComponent + "-journal"
    let registration = Inotify.shared.watch(folder: url.deletingLastPathComponent().path) { name, mask in
      guard name == wal && mask & UInt32(IN_MODIFY) != 0 || name == journal && mask & UInt32(IN_DELETE) != 0 else { return }
      queue.async { onChange() }
    }
    guard let registration else { return nil }
    self.registration = registration
    #elseif canImport(Darwin)
    // The WAL only: a vnode source follows one file, and a rollback journal comes and goes.
    let descriptor = open(url.deletingLastPathComponent().appendingPathComponent(wal).path, O_EVTONLY)
    guard descriptor >= 0 else { return nil }
    let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: descriptor, eventMask: [.write, .extend], queue: queue)
    source.setEventHandler { onChange() }
    source.setCancelHandler { close(descriptor) }
    source.resume()
    self.source = source
    #else
    return nil
    #endif
  }

  func cancel() {
    #if canImport(Glibc)
    registration.map(Inotify.shared.unwatch)
    registration = nil
    #elseif canImport(Darwin)
    source?.cancel()
    source = nil
    #endif
  }

  deinit { cancel() }
}

#if canImport(Glibc)
/// The process's one inotify instance (the system allows each user a few), with a watch per
/// folder that databases with live queries are in, and the callbacks of each.
final class Inotify: @unchecked Sendable {
  static let shared = Inotify()

  /// A callback on the events of one folder.
  struct Registration: Hashable {
    fileprivate let watch: Int32
    fileprivate let id: Int
  }

  private let lock = NSLock()
  private var descriptor: Int32 = -1
  private var source: (any DispatchSourceRead)?
  private var callbacks: [Int32: [Int: @Sendable (String, UInt32) -> Void]] = [:]
  private var nextID = 0

  /// Calls `callback` with the name and mask of each event in `folder`; nil when inotify is not
  /// available.
  func watch(folder: String, _ callback: @escaping @Sendable (String, UInt32) -> Void) -> Registration? {
    lock.withLock {
      if descriptor < 0 {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global(qos: .userInitiated))
        source.setEventHandler { [weak self] in self?.readEvents() }
        source.resume()
        self.source = source
      }
      // A folder watched already gets the same watch back.
      let watch = inotify_add_watch(descriptor, folder, UInt32(IN_MODIFY | IN_DELETE))
      guard watch >= 0 else { return nil }
      nextID += 1
      callbacks[watch, default: [:]][nextID] = callback
      return Registration(watch: watch, id: nextID)
    }
  }

  func unwatch(_ registration: Registration) {
    lock.withLock {
      callbacks[registration.watch]?[registration.id] = nil
      if callbacks[registration.watch]?.isEmpty == true {
        callbacks[registration.watch] = nil
        inotify_rm_watch(descriptor, registration.watch)
      }
    }
  }

  /// Reads the events waiting and calls the callbacks of their folders.
  private func readEvents() {
    // Events are `inotify_event` headers (`wd`, `mask`, `cookie` and `len`, four 32-bit
    // fields), each followed by its name's bytes.
    let header = 16
    var buffer = [UInt8](repeating: 0, count: 8192)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      var offset = 0
      while offset + header <= count {
        let (watch, mask, length) = buffer.withUnsafeBytes {
          (
            $0.load(fromByteOffset: offset, as: Int32.self), $0.load(fromByteOffset: offset + 4, as: UInt32.self),
            Int($0.load(fromByteOffset: offset + 12, as: UInt32.self))
          )
        }
        let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
        let name = String(decoding: nameBytes, as: UTF8.self)
        for callback in lock.withLock({ Array(callbacks[watch]?.values ?? [:].values) }) { callback(name, mask) }
        offset += header + length
      }
    }
  }
}
#endif
