/** Brazilian Portuguese texts of the widget (keys: ../../widget/texts.ts). Loaded on demand. */
import type { WidgetTexts } from '../../widget/texts.js';

export default {
  button: 'Conectar redes sociais',
  dialogTitle: 'Conecte suas redes sociais',
  close: 'Fechar',
  loading: 'Carregando…',
  frameTitle: 'Conexão de contas',
  popupBlocked: 'Seu navegador bloqueou a janela de conexão. Permita pop-ups neste site e tente de novo.',
  openFailed: 'Não foi possível abrir a página de conexão. Tente de novo.',
  loadTimeout: 'A página de conexão não está respondendo. Verifique sua conexão, feche esta janela e tente de novo.',
} satisfies WidgetTexts;
