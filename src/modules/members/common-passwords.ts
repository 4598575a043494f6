// Words that the most common leaked passwords are built from (the top of the public breach
// corpora: "password", "qwerty", "iloveyou" …). A password whose letters, once digits, spaces
// and punctuation are taken out, are only one of these words (say "Password2024!") is refused:
// the length rule alone would let those through. Kept small on purpose; see passwords.ts.
// prettier-ignore
export const COMMON_PASSWORD_WORDS: ReadonlySet<string> = new Set([
  'password', 'passw', 'passwd', 'pass', 'pwd', 'qwerty', 'qwertyuiop', 'qwertz', 'azerty',
  'asdf', 'asdfgh', 'asdfghjkl', 'zxcvbn', 'zxcvbnm', 'qazwsx', 'qwe', 'qweasd', 'abc', 'abcd',
  'abcdef', 'iloveyou', 'iloveu', 'loveyou', 'love', 'admin', 'administrator', 'root', 'user',
  'guest', 'test', 'tester', 'testing', 'welcome', 'letmein', 'login', 'logon', 'secret',
  'changeme', 'default', 'master', 'monkey', 'dragon', 'football', 'soccer', 'baseball',
  'basketball', 'hockey', 'superman', 'batman', 'spiderman', 'starwars', 'pokemon', 'sunshine',
  'princess', 'shadow', 'michael', 'jennifer', 'jordan', 'hunter', 'trustno', 'whatever',
  'freedom', 'mustang', 'ashley', 'bailey', 'charlie', 'daniel', 'thomas', 'robert', 'jessica',
  'computer', 'internet', 'access', 'flower', 'cheese', 'chocolate', 'summer', 'winter',
  'spring', 'autumn', 'hello', 'helloworld', 'killer', 'pepper', 'ginger', 'cookie', 'orange',
  'banana', 'apple', 'matrix', 'zaq', 'zaqxsw', 'qaz', 'wsx', 'blink', 'lovely', 'angel',
  'babygirl', 'tigger', 'buster', 'soccer', 'harley', 'ranger', 'joshua', 'maggie', 'ginger',
  'hannah', 'nicole', 'samsung', 'google', 'facebook', 'linkedin', 'myspace', 'omni', 'omnichannel',
  'xomni', 'company', 'business', 'office', 'manager', 'management', 'console', 'system',
  'server', 'database', 'security', 'private', 'public', 'token', 'oauth', 'owner', 'member',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september',
  'october', 'november', 'december', 'monday', 'friday', 'weekend', 'holiday', 'christmas',
]);
