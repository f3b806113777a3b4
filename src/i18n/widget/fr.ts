/** French texts of the widget (keys: ../../widget/texts.ts). Loaded on demand. */
import type { WidgetTexts } from '../../widget/texts.js';

export default {
  button: 'Connecter les réseaux sociaux',
  dialogTitle: 'Connectez vos comptes de réseaux sociaux',
  close: 'Fermer',
  loading: 'Chargement…',
  frameTitle: 'Connexion des comptes',
  popupBlocked: 'Votre navigateur a bloqué la fenêtre de connexion. Autorisez les fenêtres pop-up pour ce site, puis réessayez.',
  openFailed: 'La page de connexion n’a pas pu s’ouvrir. Veuillez réessayer.',
  loadTimeout: 'La page de connexion ne répond pas. Vérifiez votre connexion, fermez cette fenêtre et réessayez.',
} satisfies WidgetTexts;
