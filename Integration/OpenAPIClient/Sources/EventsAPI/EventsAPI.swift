// The generated `Client`, `Components` and `Operations` are this module's: swift-openapi-generator
// writes them from openapi.json at build time.
