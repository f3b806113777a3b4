/** Spanish texts of the widget (keys: ../../widget/texts.ts). Loaded on demand. */
import type { WidgetTexts } from '../../widget/texts.js';

export default {
  button: 'Conectar redes sociales',
  dialogTitle: 'Conecta tus redes sociales',
  close: 'Cerrar',
  loading: 'Cargando…',
  frameTitle: 'Conexión de cuentas',
  popupBlocked: 'Tu navegador bloqueó la ventana de conexión. Permite las ventanas emergentes en este sitio y vuelve a intentarlo.',
  openFailed: 'No se pudo abrir la página de conexión. Vuelve a intentarlo.',
  loadTimeout: 'La página de conexión no responde. Comprueba tu conexión, cierra esta ventana y vuelve a intentarlo.',
} satisfies WidgetTexts;
