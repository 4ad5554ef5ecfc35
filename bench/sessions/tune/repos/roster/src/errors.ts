export class HttpError extends Error {
  constructor(public status: number, message: string, public code = "error") {
    super(message);
  }
}

export function toResponse(err: unknown): { status: number; body: { error: string; code: string } } {
  if (err instanceof HttpError) {
    return { status: err.status, body: { error: err.message, code: err.code } };
  }
  console.error(err);
  return { status: 500, body: { error: "internal error", code: "internal" } };
}
