/**
 * @module
 * The base class of the widget's two elements, in place of LitElement. Lit's template engine (`render` and `html`
 * from lit-html) still renders both; what this replaces is the reactive base class (@lit/reactive-element), which
 * costs the script-tag build about 2.8 KB gzip, more than the whole distance to its 8 KB target, for features the
 * widget does not use (reflection, converters, controllers, update cycles with change maps).
 *
 * What it keeps of LitElement, with the same behaviour:
 * - an open shadow root styled by a constructable style sheet (`adoptedStyleSheets`: not subject to the page's
 *   CSP `style-src`; every browser of the build's ES2022 target has it, Safari since 16.4);
 * - declared properties (`static properties`): setting one renders again, batched into one microtask; an attribute
 *   sets its property (text, or presence for `type: Boolean`); a value set on the element before it was upgraded
 *   (an integrator's script that ran before the widget's) is kept, not overwritten by the default;
 * - rendering only while connected, `firstUpdated()` after the first render, and `updateComplete`.
 */
import { render } from 'lit/html.js';

/** A declared property, in LitElement's notation (which the custom-elements analyzer reads). */
export interface PropertyOptions {
  /** Its attribute's name; false for none. Default: the property's name in lower case. */
  attribute?: string | false;
  /** `Boolean`: the attribute's presence is the value. Default: the attribute's text. */
  type?: BooleanConstructor;
}

// Node has no HTMLElement: importing the widget there (server-side rendering of a page, tests) must not throw.
const Base = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/** The attribute of a declared property, or false when it has none. */
const attributeOf = (name: string, options: PropertyOptions): string | false => options.attribute ?? name.toLowerCase();

export abstract class WidgetElement extends Base {
  // Every element declares both (no defaults: they would cost the script-tag build for no element).
  /** The element's style sheet, as CSS text. */
  static styles: string;
  static properties: Record<string, PropertyOptions>;
  static #sheets = new Map<string, CSSStyleSheet>();

  /**
   * Registers the element once; a no-op when the tag is already taken (another copy of the widget, or yours).
   * @param tag - Default: the class's `tagName`.
   */
  static define(tag?: string, registry: CustomElementRegistry = customElements): void {
    tag ??= (this as unknown as { tagName: string }).tagName;
    if (!registry.get(tag)) registry.define(tag, this as unknown as CustomElementConstructor);
  }

  /**
   * Read by the browser once, when the element is defined: the moment to put an accessor on the prototype for each
   * declared property (before any instance exists).
   */
  static get observedAttributes(): string[] {
    const attributes: string[] = [];
    for (const [name, options] of Object.entries(this.properties)) {
      Object.defineProperty(this.prototype, name, {
        get(this: WidgetElement) {
          return this.#values[name];
        },
        set(this: WidgetElement, value: unknown) {
          if (this.#values[name] === value) return;
          this.#values[name] = value;
          this.requestUpdate();
        },
      });
      const attribute = attributeOf(name, options);
      if (attribute) attributes.push(attribute);
    }
    return attributes;
  }

  /** Resolves once the element has rendered what was set before (true), as LitElement's does. */
  updateComplete!: Promise<boolean>;

  /** The declared properties' values, by name. */
  #values: Record<string, unknown> = {};
  /** Set while a render is due: resolves `updateComplete`. */
  #resolveUpdate: ((done: boolean) => void) | undefined;
  /** Values set on the element before its upgrade, applied over the defaults at the first render; null after it. */
  #upgradeValues: Record<string, unknown> | null = {};

  constructor() {
    super();
    const { properties, styles } = this.constructor as typeof WidgetElement;
    for (const name in properties) {
      if (Object.hasOwn(this, name)) {
        this.#upgradeValues![name] = this[name as keyof this];
        delete this[name as keyof this];
      }
    }
    // A constructable sheet, shared by every element of the class.
    let sheet = WidgetElement.#sheets.get(styles);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(styles);
      WidgetElement.#sheets.set(styles, sheet);
    }
    /** @ignore The manifest analyzer would otherwise list `adoptedStyleSheets` as a field of the element. */
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [sheet];
    this.requestUpdate();
  }

  connectedCallback(): void {
    queueMicrotask(() => this.#update());
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null): void {
    const { properties } = this.constructor as typeof WidgetElement;
    for (const [name, options] of Object.entries(properties)) {
      if (attributeOf(name, options) === attribute) {
        (this as Record<string, unknown>)[name] = options.type === Boolean ? value !== null : value;
      }
    }
  }

  /** Renders again in a microtask; every change until then shares that render. */
  requestUpdate(): void {
    if (this.#resolveUpdate) return;
    this.updateComplete = new Promise((resolve) => (this.#resolveUpdate = resolve));
    queueMicrotask(() => this.#update());
  }

  #update(): void {
    const resolve = this.#resolveUpdate;
    // A disconnected element renders when it is connected again.
    if (!resolve || !this.isConnected) return;
    const upgradeValues = this.#upgradeValues;
    // Through the accessors, into the render that is due.
    if (upgradeValues) Object.assign(this, upgradeValues);
    this.#upgradeValues = null;
    this.#resolveUpdate = undefined;
    render(this.render(), this.shadowRoot!, { host: this });
    if (upgradeValues) this.firstUpdated();
    resolve(true);
  }

  /** After the first render. */
  protected firstUpdated(): void {}

  /** The shadow root's content: a lit-html template. */
  protected abstract render(): unknown;
}
