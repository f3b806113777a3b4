/** Arabic texts of the widget, written right to left (keys: ../../widget/texts.ts). Loaded on demand. */
import type { WidgetTexts } from '../../widget/texts.js';

export default {
  button: 'ربط الحسابات الاجتماعية',
  dialogTitle: 'اربط حساباتك على الشبكات الاجتماعية',
  close: 'إغلاق',
  loading: 'جارٍ التحميل…',
  frameTitle: 'ربط الحسابات',
  popupBlocked: 'حظر متصفحك نافذة الربط. اسمح بالنوافذ المنبثقة لهذا الموقع ثم أعد المحاولة.',
  openFailed: 'تعذّر فتح صفحة الربط. يُرجى إعادة المحاولة.',
  loadTimeout: 'صفحة الربط لا تستجيب. تحقق من اتصالك، وأغلق هذه النافذة، ثم أعد المحاولة.',
} satisfies WidgetTexts;
