/// Generated code declares a type conforming to this protocol, so that code generated for
/// another version of the runtime fails to compile with a message naming the version:
/// `cannot find type 'GeneratedCodeVersion_2' in module 'TypedEvents'`.
///
/// Regenerate with the `eventgen` that matches the TypedEvents runtime you build against.
/// Version 3: filter helpers are `EventSelector` functions that call `_event(about:)`.
/// Version 2: generated files import the runtime's `Generated` SPI and name everything
/// module-qualified.
@_spi(Generated)
public protocol GeneratedCodeVersion_3 {}
