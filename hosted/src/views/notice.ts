/** The layout every notice screen shares: one heading, one paragraph, and an optional next step. */
import { html, nothing, type TemplateResult } from 'lit';

export const noticeTemplate = (screen: string, title: string, body: string, next: TemplateResult | typeof nothing = nothing) =>
  html`<section class="notice" aria-labelledby="notice-title" data-screen=${screen}>
    <h1 id="notice-title">${title}</h1>
    <p>${body}</p>
    ${next}
  </section>`;
