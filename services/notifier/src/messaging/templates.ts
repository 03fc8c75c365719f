import type { notificationV1 } from '@stormhook/proto';

type Template = Exclude<notificationV1.MessageTemplate, 'MESSAGE_TEMPLATE_UNSPECIFIED'>;
type Text = { subject: string; body: string };

/** Built-in texts, English and Turkish; `{name}` is replaced by params[name] (missing ones by ""). */
const TEXTS: Readonly<Record<'en' | 'tr', Readonly<Record<Template, Text>>>> = {
  en: {
    MESSAGE_TEMPLATE_PASSWORD_RESET: {
      subject: 'Reset your Stormhook password',
      body: 'Hello {firstName},\n\nReset your password here: {link}\nThe link expires at {expiresAt}. If you did not ask for it, ignore this message.',
    },
    MESSAGE_TEMPLATE_PHONE_ACTIVATION: { subject: 'Stormhook activation code', body: 'Your Stormhook activation code is {code}. It expires at {expiresAt}.' },
    MESSAGE_TEMPLATE_INVITATION: {
      subject: 'You are invited to Stormhook',
      body: 'Hello {firstName},\n\nYou were invited to a Stormhook account. Accept here: {link}\nThe invitation expires at {expiresAt}.',
    },
    MESSAGE_TEMPLATE_ENDPOINT_DISABLED: {
      subject: 'Your Stormhook webhook was disabled',
      body: 'Your webhook endpoint {url} was disabled at {disabledAt}: {reason}.\nFix the endpoint, then enable it again; failed deliveries can be redelivered from the delivery log.',
    },
  },
  tr: {
    MESSAGE_TEMPLATE_PASSWORD_RESET: {
      subject: 'Stormhook şifre sıfırlama',
      body: 'Merhaba {firstName},\n\nŞifrenizi buradan sıfırlayın: {link}\nBağlantı {expiresAt} tarihinde geçersiz olur. Siz istemediyseniz bu mesajı dikkate almayın.',
    },
    MESSAGE_TEMPLATE_PHONE_ACTIVATION: {
      subject: 'Stormhook aktivasyon kodu',
      body: 'Stormhook aktivasyon kodunuz {code}. Kod {expiresAt} tarihinde geçersiz olur.',
    },
    MESSAGE_TEMPLATE_INVITATION: {
      subject: 'Stormhook davetiyesi',
      body: 'Merhaba {firstName},\n\nBir Stormhook hesabına davet edildiniz: {link}\nDavet {expiresAt} tarihinde geçersiz olur.',
    },
    MESSAGE_TEMPLATE_ENDPOINT_DISABLED: {
      subject: 'Stormhook webhook adresiniz devre dışı',
      body: 'Webhook adresiniz {url}, {disabledAt} tarihinde devre dışı bırakıldı: {reason}.\nAdresi düzeltip yeniden etkinleştirin; başarısız gönderimleri gönderim kaydından yeniden gönderebilirsiniz.',
    },
  },
};

/** Subject and body of a request: its own when given, else the template's in the recipient's language. */
export function renderMessage(request: notificationV1.MessageRequested): Text | undefined {
  const language = request.locale.toLowerCase().startsWith('tr') ? 'tr' : 'en';
  const template = request.template === 'MESSAGE_TEMPLATE_UNSPECIFIED' ? undefined : TEXTS[language][request.template];
  const fill = (text: string): string => text.replace(/\{(\w+)\}/g, (_, name: string) => request.params[name] ?? '');
  const subject = request.subject || (template ? fill(template.subject) : '');
  const body = request.textBody || (template ? fill(template.body) : '');
  return body ? { subject, body } : undefined;
}
