/**
 * An expected failure a service raises: it becomes `{ code, message }` with `statusCode`
 * (ARCHITECTURE "Errors are data"). `message` is Norwegian and safe to show the user.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}
