/** Standalone development page (index.html of `npm run dev`): the app plus a language picker. */
import { isShellLanguage, setStandaloneLanguage, standaloneLanguage } from '@campus/subapp-sdk';
import './main.ts';

const picker = document.getElementById('dev-language');
if (picker instanceof HTMLSelectElement) {
  picker.value = standaloneLanguage();
  picker.addEventListener('change', () => {
    if (isShellLanguage(picker.value)) setStandaloneLanguage(picker.value);
  });
}
