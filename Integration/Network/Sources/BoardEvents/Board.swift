// The board events are generated at build time from Board.events.yaml by EventGenPlugin; SwiftPM
// builds a target only when it has a Swift file of its own, which is this one.
