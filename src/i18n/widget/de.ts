/** German texts of the widget (keys: ../../widget/texts.ts). Loaded on demand. */
import type { WidgetTexts } from '../../widget/texts.js';

export default {
  button: 'Social-Media-Konten verbinden',
  dialogTitle: 'Verbinde deine Social-Media-Konten',
  close: 'Schließen',
  loading: 'Wird geladen…',
  frameTitle: 'Konten verbinden',
  popupBlocked: 'Dein Browser hat das Verbindungsfenster blockiert. Erlaube Pop-ups für diese Website und versuche es erneut.',
  openFailed: 'Die Verbindungsseite konnte nicht geöffnet werden. Bitte versuche es erneut.',
  loadTimeout: 'Die Verbindungsseite antwortet nicht. Prüfe deine Internetverbindung, schließe dieses Fenster und versuche es erneut.',
} satisfies WidgetTexts;
