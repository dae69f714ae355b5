import type { ProviderDefinition } from './kit/provider-definition';
import { providers as africasTalking } from './africas-talking-sms-provider';
import { providers as apns } from './apns-push-provider';
import { providers as azureSms } from './azure-sms-provider';
import { providers as brevoSms } from './brevo-sms-provider';
import { providers as discordMsteamsMattermost } from './chat-webhook-provider';
import { providers as clicksend } from './clicksend-sms-provider';
import { providers as expo } from './expo-push-provider';
import { providers as fcm } from './fcm-push-provider';
import { providers as genericSms } from './generic-sms-provider';
import { providers as getstream } from './getstream-chat-provider';
import { providers as infobipEmail } from './infobip-email-provider';
import { providers as infobipSms } from './infobip-sms-provider';
import { providers as mailersend } from './mailersend-email-provider';
import { providers as mailgun } from './mailgun-email-provider';
import { providers as mailjet } from './mailjet-email-provider';
import { providers as mailtrap } from './mailtrap-email-provider';
import { providers as mandrill } from './mandrill-email-provider';
import { providers as messagebird } from './messagebird-sms-provider';
import { providers as nexmo } from './nexmo-sms-provider';
import { providers as nodemailer } from './nodemailer-email-provider';
import { providers as oneSignal } from './one-signal-push-provider';
import { providers as outbox } from './outbox-provider';
import { providers as outlook365 } from './outlook365-email-provider';
import { providers as plivo } from './plivo-sms-provider';
import { providers as plunk } from './plunk-email-provider';
import { providers as postmark } from './postmark-email-provider';
import { providers as pushpad } from './pushpad-push-provider';
import { providers as pusherBeams } from './pusher-beams-push-provider';
import { providers as resend } from './resend-email-provider';
import { providers as rocketChat } from './rocket-chat-chat-provider';
import { providers as sendgrid } from './sendgrid-email-provider';
import { providers as sendinblue } from './sendinblue-email-provider';
import { providers as ses } from './ses-email-provider';
import { providers as sinch } from './sinch-sms-provider';
import { providers as slack } from './slack-chat-provider';
import { providers as sns } from './sns-sms-provider';
import { providers as sparkpost } from './sparkpost-email-provider';
import { providers as telegram } from './telegram-chat-provider';
import { providers as telnyx } from './telnyx-sms-provider';
import { providers as termii } from './termii-sms-provider';
import { providers as twilio } from './twilio-sms-provider';
import { providers as webhooks } from './webhook-provider';
import { providers as whatsappBusiness } from './whatsapp-business-chat-provider';
import { providers as zulip } from './zulip-chat-provider';

/**
 * Every provider this build sends through: the one place a provider is registered (a line here for
 * its file's `providers`). `registered-providers.test.ts` fails when a provider file is left out.
 */
export const REGISTERED_PROVIDERS: readonly ProviderDefinition[] = [
  ...outbox,
  ...webhooks,
  // email
  ...nodemailer,
  ...outlook365,
  ...sendgrid,
  ...resend,
  ...ses,
  ...postmark,
  ...mailgun,
  ...mailjet,
  ...sendinblue,
  ...mailersend,
  ...sparkpost,
  ...mandrill,
  ...infobipEmail,
  ...mailtrap,
  ...plunk,
  // sms
  ...twilio,
  ...genericSms,
  ...sns,
  ...telnyx,
  ...africasTalking,
  ...azureSms,
  ...brevoSms,
  ...clicksend,
  ...infobipSms,
  ...messagebird,
  ...nexmo,
  ...plivo,
  ...sinch,
  ...termii,
  // chat
  ...slack,
  ...discordMsteamsMattermost,
  ...telegram,
  ...whatsappBusiness,
  ...zulip,
  ...rocketChat,
  ...getstream,
  // push
  ...fcm,
  ...expo,
  ...apns,
  ...oneSignal,
  ...pusherBeams,
  ...pushpad,
];
