// The events of this target are generated at build time from Bench.events.yaml by the
// EventGenPlugin build-tool plugin, as a client package would use it. SwiftPM needs one source
// file in the target itself; this is it.
import TypedEvents
