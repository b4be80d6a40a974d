/// Generated code declares a type conforming to this protocol, so that code generated for
/// another version of the runtime fails to compile with a message naming the version:
/// `cannot find type 'GeneratedCodeVersion_2' in module 'TypedEvents'`.
///
/// Regenerate with the `eventgen` that matches the TypedEvents runtime you build against.
/// Version 4: events may declare `latestKeptPerSubject`, which the runtime's buses read; an
/// older runtime would ignore it and keep nothing. Code of version 3 still builds with this
/// runtime: it declares nothing the runtime reads differently.
/// Version 3: filter helpers are `EventSelector` functions that call `_event(about:)`.
/// Version 2: generated files import the runtime's `Generated` SPI and name everything
/// module-qualified.
@_spi(Generated)
public protocol GeneratedCodeVersion_4 {}

/// Generated code of version 3, which this runtime still builds (see ``GeneratedCodeVersion_4``).
@_spi(Generated)
public protocol GeneratedCodeVersion_3 {}
