/**
 * @module
 * The guarded registration both elements use: a tag that is already taken (another copy of the widget on the
 * page, or the integrator's own element) is left alone instead of throwing.
 */
export function defineElement(tag: string, element: CustomElementConstructor, registry: CustomElementRegistry): void {
  if (!registry.get(tag)) registry.define(tag, element);
}
