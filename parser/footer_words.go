package parser

// phoneFooterForms are the footers phones' and apps' mail programs put
// below a reply, in their own translations, with {device} or {app} where
// the device's or the app's name stands. Case does not matter. They are
// the forms of parser/testdata/l10n/footers.tsv, which names the source
// of each (docs/l10n-sources.md); TestFooterFormsAreTheTable keeps the
// two the same.
var phoneFooterForms = []string{
	// ca
	"Enviat des del meu dispositiu Android amb {app}. Disculpeu la brevetat.",
	// cs
	"Odesláno aplikací {app} ze systému Android. Omluvte prosím moji stručnost.",
	"Odesláno z mého {device}",
	// da
	"Sendt fra min iPhone",
	"Sendt fra min {device}",
	"Hent Outlook til {device}",
	"Sendt fra Outlook",
	"Sendt fra {device}",
	// de
	"Von meinem iPad gesendet",
	"Von meinem iPhone gesendet",
	"Diese Nachricht wurde von meinem Android-Gerät mit {app} gesendet.",
	"Diese Nachricht wurde von meinem Android-Mobiltelefon mit K-9 Mail gesendet.",
	"Gesendet von Outlook für Android",
	"Gesendet von {device}",
	"Gesendet von {device} für {device}",
	"Von meinem Mobilgerät gesendet",
	"Von meinem {device} gesendet",
	"Von {device} gesendet",
	// en
	"Sent from my iPad",
	"Sent from my iPhone",
	"Get Outlook for Android",
	"Get Outlook for iOS",
	"Sent from Outlook for iOS",
	"Sent from my Galaxy",
	"Sent from my Samsung Galaxy s5 Octacore device",
	"Sent from Yahoo Mail on Android",
	// es
	"Enviado desde mi oficina móvil BlackBerry® de Telcel",
	"Enviado desde mi iPhone",
	"Enviado desde mi dispositivo Android con {app}. Por favor, disculpe mi brevedad.",
	"Enviado desde mi {device}",
	"Enviado desde {device}",
	// fa
	"از دستگاه اندرویدی\u200cام و به\u200cوسیلهٔ {app} ارسال شد. لطفا کوتاهی بنده را ببخشید.",
	// fr
	"Envoyé sans fil par mon terminal mobile BlackBerry sur le réseau de Bell.",
	"Envoyé de mon iPhone",
	"Envoyé depuis mon iPhone",
	"Envoyé de mon appareil Android avec {app}. Excusez ma brièveté.",
	"Envoyé à partir de Outlook pour iOS",
	"Télécharger Outlook pour {device}",
	"Envoyé depuis {device}",
	"Envoyé à partir de {device}",
	"Envoyé depuis Yahoo Mail",
	// he
	"נשלח ממכשיר האנדרואיד שלי ע\"י {app}. אנא סילחו לקצרנות שלי.",
	// hu
	"Az Androidos készülékemről küldve {app}. Elnézést kérek a rövidségemért.",
	// id
	"Dikirim dari perangkat Android saya dengan {app}. Mohon maaf atas singkatnya penjelasan saya.",
	// it
	"Inviato dal mio dispositivo Android con {app}. Scusate la brevità.",
	"Scarica Outlook per {device}",
	"Inviato da {device}",
	// ja
	"{device}から送信",
	"Android 端末から {app} で送信しました。簡単ではありますが、ご挨拶とさせていただきます。",
	// ko
	"Android 기기에서 {app}로 전송했습니다. 간결하게 작성했으니 양해 부탁드립니다.",
	"내 {device}에서 보냄",
	// nb
	"Sendt fra min iPad",
	// nl
	"Verzonden met BlackBerry Work",
	"Verstuurd vanaf mijn iPhone",
	"Verzonden vanaf mijn iPad",
	"Verzonden vanaf mijn iPhone",
	"Verzonden vanaf mijn Android-apparaat met {app}. Excuses voor mijn beknoptheid.",
	"Verzonden vanaf Outlook voor Android",
	"Verstuurd vanaf mijn {device}",
	"Verzonden met {device}",
	"Verzonden vanaf mijn {device}",
	// pl
	"Wysłane z urządzenia Android za pomocą {app}. Proszę wybaczyć moją zwięzłość.",
	"Wysłano z {device}",
	// pt
	"Enviado do meu {device}",
	// pt-BR
	"Enviado do meu dispositivo Android pelo {app}. Por favor, desculpe-me pela brevidade.",
	// pt-PT
	"Enviado do meu Android com {app}. Por favor, desculpe a minha brevidade.",
	// ro
	"Trimis de pe dispozitivul meu Android cu {app}. Vă rog să-mi scuzați concizia.",
	// ru
	"Отправлено с моего Android из {app}. Простите за краткость.",
	// sv
	"Skickat från min Android enhet med {app}. Ursäkta min korthet.",
	"Skickat från min {device}",
	"från min {device}",
	// tr
	"Android aygıtımdan {app} ile gönderildi. Lütfen kısa tuttuğum için kusura bakmayın.",
	// vi
	"Được gửi từ thiết bị Android của tôi bằng {app}. Thứ lỗi cho sự ngắn gọn của tôi.",
	// zh-CN
	"发自我的{device}",
	"通过 {app} 从我的 Android 设备发送。请原谅我的简洁。",
	"从我的{device}发送",
	// zh-TW
	"從我的 iPhone 傳送",
	"由我的 Android 設備使用 {app} 發送。請見諒我的簡短回覆。",
}
