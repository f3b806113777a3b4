/**
 * @module
 * How every fake network answers its own errors: a handler throws the network's error class, and the routes answer
 * it in the network's own error shape; any other error goes on to the service's handler (the spec's envelope).
 */
import type { Context, Env, Hono } from 'hono';

export function answerOwnErrors<E extends Env, Failure extends Error>(
  routes: Hono<E>,
  errorClass: new (...args: never[]) => Failure,
  answer: (error: Failure, c: Context<E>) => Response | Promise<Response>,
): void {
  routes.onError((error, c) => {
    if (!(error instanceof errorClass)) throw error;
    return answer(error, c);
  });
}
