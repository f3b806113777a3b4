/**
 * @module
 * Registers `<social-link-button>` and `<social-link-dialog>`. The only module of the widget with side effects;
 * import it once (or load the script-tag build, which does).
 */
import { SocialLinkButton } from './social-link-button.js';
import { SocialLinkDialog } from './social-link-dialog.js';

SocialLinkButton.define();
SocialLinkDialog.define();

declare global {
  interface HTMLElementTagNameMap {
    'social-link-button': SocialLinkButton;
    'social-link-dialog': SocialLinkDialog;
  }
}
