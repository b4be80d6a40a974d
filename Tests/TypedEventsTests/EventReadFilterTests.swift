import Foundation
import Testing
import TypedEvents

@Suite("Read filters")
struct EventReadFilterTests {
  @Test("the intersection wants what both want: types in both, the one subject both name")
  func intersection() {
    let either = EventReadFilter(types: ["a", "b"])
    let scope = EventReadFilter(types: ["b", "c"], subject: "s")
    let both = either.intersection(scope)
    #expect(both.types == ["b"])
    #expect(both.subject == "s")
    #expect(both.admits(name: "b", subject: "s"))
    #expect(!both.admits(name: "a", subject: "s"))
    #expect(!both.admits(name: "b", subject: "t"))
    // A filter that names nothing takes the other's.
    #expect(EventReadFilter.all.intersection(scope) == scope)
    #expect(scope.intersection(.all) == scope)
  }

  @Test("two subjects that differ leave nothing; the same UUID in two cases is one subject")
  func subjects() {
    let id = UUID()
    let upper = EventReadFilter(subject: id.uuidString)
    let lower = EventReadFilter(types: ["a"], subject: id.uuidString.lowercased())
    let same = upper.intersection(lower)
    #expect(same.admits(name: "a", subject: id.uuidString))
    #expect(same.admits(name: "a", subject: id.uuidString.lowercased()))
    let disjoint = EventReadFilter(subject: "s").intersection(EventReadFilter(subject: "t"))
    #expect(disjoint.types == [])
    #expect(!disjoint.admits(name: "a", subject: "s"))
    #expect(!disjoint.admits(name: "a", subject: "t"))
    #expect(!disjoint.admits(name: "a", subject: nil))
  }
}
