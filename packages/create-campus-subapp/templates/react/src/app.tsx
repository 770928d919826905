import type { ShellLanguage, SubAppContext } from '@campus/subapp-sdk';
import { useShellLanguage } from '@campus/subapp-sdk/react';

/** Every text in the shell's three languages: the app follows the language the user picks in the shell. */
const texts: Record<ShellLanguage, { greeting: (user: string) => string; intro: string }> = {
  'en-US': { greeting: (user) => `Hello, ${user}`, intro: 'This sub-system was made with the campus shell starter.' },
  'zh-CN': { greeting: (user) => `${user}，您好`, intro: '此子系统由园区外壳的起步模板生成。' },
  'zh-MO': { greeting: (user) => `${user}，您好`, intro: '此子系統由園區外殼的起步範本生成。' },
};

/** The app's one page: the signed-in user (from the shell's shared state) in the user's language. */
export function App({ context }: { context: SubAppContext }) {
  const language = useShellLanguage(context);
  const text = texts[language];
  return (
    <section className="starter-app" lang={language}>
      <h2>{text.greeting(context.props.userInfo.name)}</h2>
      <p>{text.intro}</p>
    </section>
  );
}
