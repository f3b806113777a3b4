/**
 * @module
 * A media problem in the spec's terms (section 7): the code, a message that says what to fix, and details.
 * Codes used: 164 media access or input, 182 video duration or size, 140 aspect ratio, 450 conversion failed,
 * 451 download for conversion failed, 452 staging failed (retryable), 499 media probe unavailable (retryable).
 */
export interface MediaFailure {
  code: number;
  message: string;
  details?: Record<string, unknown>;
  retryAvailable?: boolean;
}

export function mediaFailure(code: number, message: string, details?: Record<string, unknown>, retryAvailable?: boolean): MediaFailure {
  return { code, message, ...(details && { details }), ...(retryAvailable !== undefined && { retryAvailable }) };
}

export function isMediaFailure(value: unknown): value is MediaFailure {
  return typeof value === 'object' && value !== null && typeof (value as MediaFailure).code === 'number' && typeof (value as MediaFailure).message === 'string';
}
