package testkit

// Flavors not written yet: NewLLMBackend refuses them.
var llamaRoutes, ollamaRoutes, openaiRoutes map[string]llmRoute
