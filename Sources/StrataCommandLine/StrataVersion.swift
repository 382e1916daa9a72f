/// The release this tool belongs to, printed by `strata --version`; CHANGELOG.md lists what each
/// release changed.
package enum StrataVersion {
  package static let current = "0.1.0"
}
