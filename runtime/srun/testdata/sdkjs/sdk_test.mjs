// Runs the official @typesafe-ai/sdk 0.6.0 against a vllm-srun server and
// prints what it got as one JSON object on stdout. The Go test
// (runtime/srun/sdk_test.go) starts the server, runs this script with the
// server's root URL and the served model, and checks the output; this
// script only talks to the server and reports, so every check lives in Go.
//
// Usage: node sdk_test.mjs <baseURL> <model>
import { TypeSafeClient, noul, choice, score, APIError } from "@typesafe-ai/sdk";

const [baseURL, model] = process.argv.slice(2);
if (!baseURL || !model) {
  console.error("usage: node sdk_test.mjs <baseURL> <model>");
  process.exit(2);
}

// The server ignores Authorization; the SDK refuses to start without a key.
// No retries: a failure must show up as a failure, not be papered over.
const client = new TypeSafeClient({
  apiKey: "any-key",
  baseURL,
  defaultModel: model,
  retry: { maxRetries: 0 },
  timeout: 10000,
  logLevel: "off",
});

const out = {};
try {
  const { data, requestId } = await client
    .systemOne({
      state: "Our export button fails with a 500 since this morning. Open a ticket.",
      questions: {
        urgent: noul("Does the user report a problem that blocks their work?"),
        bare: noul(),
        team: choice("Which team should handle this request?", {
          billing: "Payments, invoices and refunds",
          engineering: "Outages, errors and bugs",
          other: null,
        }),
        severity: score("How severe is the problem?", ["minor", "major", "critical"]),
      },
    })
    .withResponse();
  out.systemone = { model: data.model, answers: data.answers, usage: data.usage, requestId };
} catch (err) {
  out.systemone_error = describe(err);
}

try {
  out.models = await client.models.list();
} catch (err) {
  out.models_error = describe(err);
}

try {
  await client.systemOne({ state: "hi", questions: { q: noul("Is it?") }, model: "no-such-model" });
  out.unknown_model = { status: 200 };
} catch (err) {
  out.unknown_model = describe(err);
}

console.log(JSON.stringify(out));

function describe(err) {
  if (err instanceof APIError) {
    return { status: err.status, class: err.constructor.name, message: err.message, requestId: err.requestId };
  }
  return { class: err?.constructor?.name ?? "unknown", message: String(err?.message ?? err) };
}
