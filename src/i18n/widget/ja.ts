/** Japanese texts of the widget (keys: ../../widget/texts.ts). Loaded on demand. */
import type { WidgetTexts } from '../../widget/texts.js';

export default {
  button: 'ソーシャルアカウントを連携',
  dialogTitle: 'ソーシャルアカウントを連携',
  close: '閉じる',
  loading: '読み込み中…',
  frameTitle: 'アカウント連携',
  popupBlocked: 'ブラウザが連携用ウィンドウをブロックしました。このサイトのポップアップを許可して、もう一度お試しください。',
  openFailed: '連携ページを開けませんでした。もう一度お試しください。',
  loadTimeout: '連携ページが応答しません。接続を確認し、このウィンドウを閉じてもう一度お試しください。',
} satisfies WidgetTexts;
