/** Every text in the shell's three languages: the app follows the language the user picks in the shell. */
const texts = {
  'en-US': { greeting: (user) => `Hello, ${user}`, intro: 'This sub-system was made with the campus shell starter.' },
  'zh-CN': { greeting: (user) => `${user}，您好`, intro: '此子系统由园区外壳的起步模板生成。' },
  'zh-MO': { greeting: (user) => `${user}，您好`, intro: '此子系統由園區外殼的起步範本生成。' },
};

/**
 * The app's one page: the signed-in user (from the shell's shared state) in the user's language. Text goes in as
 * text (textContent), never as HTML.
 * @param {import('@campus/subapp-sdk').SubAppContext} context
 */
export function renderPage(context) {
  const element = document.createElement('section');
  element.className = 'starter-app';
  const heading = document.createElement('h2');
  const intro = document.createElement('p');
  element.append(heading, intro);
  /** @param {import('@campus/subapp-sdk').ShellLanguage} language */
  const relabel = (language) => {
    const text = texts[language];
    element.lang = language;
    heading.textContent = text.greeting(context.props.userInfo.name);
    intro.textContent = text.intro;
  };
  relabel(context.language());
  return { element, relabel };
}
