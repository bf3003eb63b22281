//! The lexicon of field concepts: which family of fields (a form section
//! such as "Trip", "Payment" or "Network") a word of a property name or
//! title belongs to, and each family's name in every shipped language.
//!
//! Two tables, one fact each: [`FAMILY_NAMES`] (a family's names, one column
//! per language of `render::words::LANGS`) and [`WORDS`] (word -> family,
//! with a weight). Words are matched after splitting names into lower-case
//! words (snake, camel and kebab case alike) and dropping a plural `s`;
//! two adjacent words are also tried joined (`sort code` -> `sortcode`), so
//! compounds outrank their parts. Lookups go through a sorted index built
//! once, never a regex.

use super::labels::words;
use crate::plan::Node;
use crate::text::singular;
use std::sync::OnceLock;

/// Declares [`Family`] and [`FAMILY_NAMES`] together, so a family cannot lack names.
macro_rules! families {
    ($($id:ident = $wire:literal => [$($t:literal),* $(,)?],)*) => {
        /// A concept family: the section a field of that meaning belongs to.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub(crate) enum Family {
            $(#[doc = $wire] $id,)*
        }

        impl Family {
            /// Every family, in table order.
            pub(crate) const ALL: &'static [Family] = &[$(Family::$id,)*];

            /// The concept id kept in plans (`section`).
            pub(crate) fn id(self) -> &'static str {
                match self { $(Family::$id => $wire,)* }
            }
        }

        /// A family's section name, one column per language (English first).
        pub(crate) const FAMILY_NAMES: &[[&str; 7]] = &[$([$($t),*],)*];
    };
}

families! {
    Personal = "personal" => ["Personal Information", "Persönliche Angaben", "Informations personnelles", "Información personal", "Informações pessoais", "個人情報", "个人信息"],
    Contact = "contact" => ["Contact", "Kontakt", "Coordonnées", "Contacto", "Contacto", "連絡先", "联系方式"],
    Address = "address" => ["Address", "Adresse", "Adresse", "Dirección", "Morada", "住所", "地址"],
    Location = "location" => ["Location", "Standort", "Emplacement", "Ubicación", "Localização", "位置", "位置"],
    Payment = "payment" => ["Payment", "Zahlung", "Paiement", "Pago", "Pagamento", "お支払い", "付款"],
    Bank = "bank" => ["Bank account", "Bankverbindung", "Compte bancaire", "Cuenta bancaria", "Conta bancária", "銀行口座", "银行账户"],
    Money = "money" => ["Amount", "Betrag", "Montant", "Importe", "Montante", "金額", "金额"],
    Trip = "trip" => ["Trip", "Reise", "Voyage", "Viaje", "Viagem", "旅程", "行程"],
    Travellers = "travellers" => ["Travellers", "Reisende", "Voyageurs", "Viajeros", "Viajantes", "旅行者", "旅客"],
    Stay = "stay" => ["Stay", "Aufenthalt", "Séjour", "Estancia", "Estadia", "滞在", "住宿"],
    When = "when" => ["Date and time", "Datum und Uhrzeit", "Date et heure", "Fecha y hora", "Data e hora", "日時", "日期和时间"],
    Employment = "employment" => ["Employment", "Beschäftigung", "Emploi", "Empleo", "Emprego", "勤務情報", "工作信息"],
    Compensation = "compensation" => ["Compensation", "Vergütung", "Rémunération", "Remuneración", "Remuneração", "給与", "薪酬"],
    Company = "company" => ["Company", "Unternehmen", "Entreprise", "Empresa", "Empresa", "会社", "公司"],
    Vehicle = "vehicle" => ["Vehicle", "Fahrzeug", "Véhicule", "Vehículo", "Veículo", "車両", "车辆"],
    Preferences = "preferences" => ["Preferences", "Einstellungen", "Préférences", "Preferencias", "Preferências", "設定", "偏好设置"],
    Notifications = "notifications" => ["Notifications", "Benachrichtigungen", "Notifications", "Notificaciones", "Notificações", "通知", "通知"],
    Security = "security" => ["Security", "Sicherheit", "Sécurité", "Seguridad", "Segurança", "セキュリティ", "安全"],
    Account = "account" => ["Account", "Konto", "Compte", "Cuenta", "Conta", "アカウント", "账户"],
    Documents = "documents" => ["Documents", "Dokumente", "Documents", "Documentos", "Documentos", "書類", "文件"],
    Device = "device" => ["Device", "Gerät", "Appareil", "Dispositivo", "Dispositivo", "デバイス", "设备"],
    Network = "network" => ["Network", "Netzwerk", "Réseau", "Red", "Rede", "ネットワーク", "网络"],
    Pet = "pet" => ["Pet", "Haustier", "Animal", "Mascota", "Animal de estimação", "ペット", "宠物"],
    Health = "health" => ["Health", "Gesundheit", "Santé", "Salud", "Saúde", "健康", "健康"],
    Insurance = "insurance" => ["Insurance", "Versicherung", "Assurance", "Seguro", "Seguro", "保険", "保险"],
    Feedback = "feedback" => ["Feedback", "Feedback", "Avis", "Opinión", "Opinião", "フィードバック", "反馈"],
    Consent = "consent" => ["Consent", "Einwilligung", "Consentement", "Consentimiento", "Consentimento", "同意", "同意"],
    Emergency = "emergency" => ["Emergency contact", "Notfallkontakt", "Contact d'urgence", "Contacto de emergencia", "Contacto de emergência", "緊急連絡先", "紧急联系人"],
    Delivery = "delivery" => ["Delivery", "Lieferung", "Livraison", "Entrega", "Entrega", "配送", "配送"],
    Size = "size" => ["Size", "Abmessungen", "Dimensions", "Dimensiones", "Dimensões", "サイズ", "尺寸"],
    Editing = "editing" => ["Editing", "Bearbeitung", "Édition", "Edición", "Edição", "編集", "编辑"],
    Display = "display" => ["Display", "Anzeige", "Affichage", "Pantalla", "Ecrã", "表示", "显示"],
    Saving = "saving" => ["Saving", "Speichern", "Enregistrement", "Guardado", "Gravação", "保存", "保存"],
    Order = "order" => ["Order", "Bestellung", "Commande", "Pedido", "Encomenda", "注文", "订单"],
    Education = "education" => ["Course", "Kurs", "Cours", "Curso", "Curso", "コース", "课程"],
    Lighting = "lighting" => ["Lighting", "Beleuchtung", "Éclairage", "Iluminación", "Iluminação", "照明", "照明"],
    Recipient = "recipient" => ["Recipient", "Empfänger", "Destinataire", "Destinatario", "Destinatário", "受取人", "收件人"],
    Product = "product" => ["Product", "Produkt", "Produit", "Producto", "Produto", "商品", "商品"],
    Issue = "issue" => ["Issue", "Problem", "Problème", "Incidencia", "Problema", "問題", "问题"],
    Event = "event" => ["Event", "Veranstaltung", "Événement", "Evento", "Evento", "イベント", "活动"],
    Search = "search" => ["Search", "Suche", "Recherche", "Búsqueda", "Pesquisa", "検索", "搜索"],
    Decision = "decision" => ["Decision", "Entscheidung", "Décision", "Decisión", "Decisão", "判断", "决定"],
    Climate = "climate" => ["Temperature", "Temperatur", "Température", "Temperatura", "Temperatura", "温度", "温度"],
    Recording = "recording" => ["Recording", "Aufnahme", "Enregistrement", "Grabación", "Gravação", "録画", "录制"],
    Alert = "alert" => ["Alert condition", "Alarmbedingung", "Condition d'alerte", "Condición de alerta", "Condição de alerta", "アラート条件", "警报条件"],
    Options = "options" => ["Options", "Optionen", "Options", "Opciones", "Opções", "オプション", "选项"],
    Property = "property" => ["Property", "Immobilie", "Bien", "Inmueble", "Imóvel", "物件", "房产"],
    Comments = "comments" => ["Comments", "Anmerkungen", "Commentaires", "Comentarios", "Comentários", "コメント", "备注"],
    Details = "details" => ["Details", "Details", "Détails", "Detalles", "Detalhes", "詳細", "详细信息"],
}

impl Family {
    /// The family's section name in the language of column `lang`
    /// (`render::words::LANGS` order; out of range is English).
    pub(crate) fn name(self, lang: usize) -> &'static str {
        let row = &FAMILY_NAMES[self as usize];
        row.get(lang).copied().unwrap_or(row[0])
    }

    /// The family whose English section name is `name` ("Recipient",
    /// "Emergency contact"), so a section named after a subject is shown
    /// in the form's language where the lexicon has the word.
    pub(crate) fn named(name: &str) -> Option<Family> {
        Family::ALL
            .iter()
            .copied()
            .find(|f| f.name(0).eq_ignore_ascii_case(name))
    }

    /// The family of a concept id kept in a plan.
    pub(crate) fn from_id(id: &str) -> Option<Family> {
        Family::ALL.iter().copied().find(|f| f.id() == id)
    }
}

/// Whether a layout names any section by concept id.
pub(crate) fn has_sections(node: &Node) -> bool {
    match node {
        Node::Group {
            section, elements, ..
        } => section.is_some() || elements.iter().any(has_sections),
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements.iter().any(has_sections)
        }
        Node::Steps { steps } => steps
            .iter()
            .any(|s| s.section.is_some() || s.elements.iter().any(has_sections)),
        Node::Control(_) | Node::Table(_) => false,
    }
}

/// Names every section that keeps a known concept id in the language of
/// column `lang`; other titles (a nested object's own) stay as written.
pub(crate) fn localize(node: &mut Node, lang: usize) {
    let name = |section: &Option<String>, label: &mut String| {
        if let Some(family) = section.as_deref().and_then(Family::from_id) {
            family.name(lang).clone_into(label);
        }
    };
    match node {
        Node::Group {
            label,
            section,
            elements,
            ..
        } => {
            name(section, label);
            elements.iter_mut().for_each(|e| localize(e, lang));
        }
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements.iter_mut().for_each(|e| localize(e, lang));
        }
        Node::Steps { steps } => {
            for step in steps {
                name(&step.section, &mut step.label);
                step.elements.iter_mut().for_each(|e| localize(e, lang));
            }
        }
        Node::Control(_) | Node::Table(_) => {}
    }
}

/// How strongly a word says what a field is: a generic word (`name`,
/// `date`) gives way to a specific one (`emergency`, `iban`), and a joined
/// compound (`sortcode`) outranks both.
const GENERIC: u8 = 1;
const SPECIFIC: u8 = 2;
const COMPOUND: u8 = 3;

use Family as F;

/// Word (singular, lower case) -> family and weight. One row per word.
const WORDS: &[(&str, Family, u8)] = &[
    // Who the person is.
    ("name", F::Personal, GENERIC),
    ("firstname", F::Personal, COMPOUND),
    ("lastname", F::Personal, COMPOUND),
    ("fullname", F::Personal, COMPOUND),
    ("givenname", F::Personal, COMPOUND),
    ("familyname", F::Personal, COMPOUND),
    ("middlename", F::Personal, COMPOUND),
    ("surname", F::Personal, SPECIFIC),
    ("forename", F::Personal, SPECIFIC),
    ("birth", F::Personal, SPECIFIC),
    ("birthday", F::Personal, SPECIFIC),
    ("birthdate", F::Personal, SPECIFIC),
    ("dob", F::Personal, SPECIFIC),
    ("gender", F::Personal, SPECIFIC),
    ("sex", F::Personal, SPECIFIC),
    ("nationality", F::Personal, SPECIFIC),
    ("salutation", F::Personal, SPECIFIC),
    ("pronoun", F::Personal, SPECIFIC),
    ("age", F::Personal, GENERIC),
    ("bio", F::Personal, GENERIC),
    // How to reach them.
    ("email", F::Contact, GENERIC),
    ("mail", F::Contact, GENERIC),
    ("phone", F::Contact, GENERIC),
    ("mobile", F::Contact, GENERIC),
    ("telephone", F::Contact, GENERIC),
    ("tel", F::Contact, GENERIC),
    ("fax", F::Contact, GENERIC),
    ("contact", F::Contact, GENERIC),
    ("callback", F::Contact, SPECIFIC),
    ("linkedin", F::Contact, SPECIFIC),
    // Where they live.
    ("street", F::Address, SPECIFIC),
    ("address", F::Address, GENERIC),
    ("addr", F::Address, GENERIC),
    ("city", F::Address, GENERIC),
    ("town", F::Address, GENERIC),
    ("postal", F::Address, SPECIFIC),
    ("postcode", F::Address, SPECIFIC),
    ("zip", F::Address, SPECIFIC),
    ("zipcode", F::Address, COMPOUND),
    ("postalcode", F::Address, COMPOUND),
    ("state", F::Address, GENERIC),
    ("province", F::Address, GENERIC),
    ("country", F::Address, GENERIC),
    ("county", F::Address, GENERIC),
    ("suburb", F::Address, SPECIFIC),
    ("district", F::Address, GENERIC),
    ("apartment", F::Address, GENERIC),
    ("apt", F::Address, SPECIFIC),
    ("house", F::Address, GENERIC),
    // A place on a map.
    ("location", F::Location, GENERIC),
    ("latitude", F::Location, SPECIFIC),
    ("longitude", F::Location, SPECIFIC),
    ("lat", F::Location, SPECIFIC),
    ("lng", F::Location, SPECIFIC),
    ("lon", F::Location, SPECIFIC),
    ("altitude", F::Location, SPECIFIC),
    ("coordinate", F::Location, SPECIFIC),
    ("radius", F::Location, GENERIC),
    ("geofence", F::Location, SPECIFIC),
    ("fence", F::Location, SPECIFIC),
    // Cards.
    ("card", F::Payment, SPECIFIC),
    ("cardholder", F::Payment, SPECIFIC),
    ("cvv", F::Payment, SPECIFIC),
    ("cvc", F::Payment, SPECIFIC),
    ("expiry", F::Payment, GENERIC),
    ("expiration", F::Payment, GENERIC),
    ("payment", F::Payment, SPECIFIC),
    ("billing", F::Payment, SPECIFIC),
    ("invoice", F::Payment, SPECIFIC),
    ("vat", F::Payment, GENERIC),
    // Bank accounts.
    ("iban", F::Bank, SPECIFIC),
    ("bic", F::Bank, SPECIFIC),
    ("swift", F::Bank, SPECIFIC),
    ("bank", F::Bank, SPECIFIC),
    ("sortcode", F::Bank, COMPOUND),
    ("accountnumber", F::Bank, COMPOUND),
    ("accountholder", F::Bank, COMPOUND),
    ("routing", F::Bank, SPECIFIC),
    // Money.
    ("amount", F::Money, GENERIC),
    ("price", F::Money, GENERIC),
    ("cost", F::Money, GENERIC),
    ("currency", F::Money, GENERIC),
    ("total", F::Money, GENERIC),
    ("tax", F::Money, GENERIC),
    ("income", F::Money, SPECIFIC),
    ("budget", F::Money, SPECIFIC),
    ("fee", F::Money, GENERIC),
    ("expense", F::Money, GENERIC),
    ("loan", F::Money, SPECIFIC),
    ("discount", F::Money, GENERIC),
    ("promo", F::Money, GENERIC),
    ("stock", F::Money, GENERIC),
    ("quantity", F::Money, GENERIC),
    // Journeys.
    ("origin", F::Trip, SPECIFIC),
    ("destination", F::Trip, SPECIFIC),
    ("depart", F::Trip, SPECIFIC),
    ("departure", F::Trip, SPECIFIC),
    ("return", F::Trip, GENERIC),
    ("flight", F::Trip, SPECIFIC),
    ("trip", F::Trip, SPECIFIC),
    ("journey", F::Trip, SPECIFIC),
    ("airport", F::Trip, SPECIFIC),
    ("arrival", F::Trip, SPECIFIC),
    ("outbound", F::Trip, SPECIFIC),
    ("inbound", F::Trip, SPECIFIC),
    ("flexible", F::Trip, GENERIC),
    ("region", F::Trip, GENERIC),
    ("adult", F::Travellers, SPECIFIC),
    ("child", F::Travellers, SPECIFIC),
    ("children", F::Travellers, SPECIFIC),
    ("infant", F::Travellers, SPECIFIC),
    ("traveller", F::Travellers, SPECIFIC),
    ("traveler", F::Travellers, SPECIFIC),
    ("passenger", F::Travellers, SPECIFIC),
    ("cabin", F::Travellers, GENERIC),
    ("checkin", F::Stay, COMPOUND),
    ("checkout", F::Stay, COMPOUND),
    ("room", F::Stay, GENERIC),
    ("hotel", F::Stay, SPECIFIC),
    ("night", F::Stay, GENERIC),
    ("breakfast", F::Stay, SPECIFIC),
    // Dates, times, schedules.
    ("date", F::When, GENERIC),
    ("time", F::When, GENERIC),
    ("start", F::When, GENERIC),
    ("end", F::When, GENERIC),
    ("timezone", F::When, SPECIFIC),
    ("duration", F::When, GENERIC),
    ("period", F::When, GENERIC),
    ("week", F::When, GENERIC),
    ("day", F::When, GENERIC),
    ("deadline", F::When, GENERIC),
    ("due", F::When, GENERIC),
    ("recurrence", F::When, SPECIFIC),
    ("schedule", F::When, SPECIFIC),
    ("frequency", F::When, GENERIC),
    ("quiet", F::When, SPECIFIC),
    ("hour", F::When, GENERIC),
    ("wake", F::When, SPECIFIC),
    ("sleep", F::When, SPECIFIC),
    ("earliest", F::When, GENERIC),
    ("latest", F::When, GENERIC),
    ("shift", F::When, GENERIC),
    ("availability", F::When, GENERIC),
    ("appointment", F::When, SPECIFIC),
    ("booking", F::When, GENERIC),
    ("available", F::When, GENERIC),
    ("when", F::When, GENERIC),
    ("slot", F::When, GENERIC),
    ("interval", F::When, GENERIC),
    ("repeat", F::When, GENERIC),
    // Work.
    ("employee", F::Employment, SPECIFIC),
    ("employment", F::Employment, SPECIFIC),
    ("job", F::Employment, SPECIFIC),
    ("position", F::Employment, GENERIC),
    ("department", F::Employment, GENERIC),
    ("manager", F::Employment, SPECIFIC),
    ("occupation", F::Employment, SPECIFIC),
    ("employer", F::Employment, SPECIFIC),
    ("colleague", F::Employment, SPECIFIC),
    ("team", F::Employment, GENERIC),
    ("role", F::Employment, GENERIC),
    ("interview", F::Employment, SPECIFIC),
    ("interviewer", F::Employment, SPECIFIC),
    ("workplace", F::Employment, SPECIFIC),
    // What a job pays: beside the job, never with a payment.
    ("salary", F::Compensation, SPECIFIC),
    ("wage", F::Compensation, SPECIFIC),
    ("bonus", F::Compensation, SPECIFIC),
    ("compensation", F::Compensation, SPECIFIC),
    ("payperiod", F::Compensation, COMPOUND),
    ("payrate", F::Compensation, COMPOUND),
    ("company", F::Company, SPECIFIC),
    ("organisation", F::Company, SPECIFIC),
    ("organization", F::Company, SPECIFIC),
    ("business", F::Company, GENERIC),
    ("client", F::Company, GENERIC),
    // Vehicles.
    ("vehicle", F::Vehicle, SPECIFIC),
    ("car", F::Vehicle, SPECIFIC),
    ("plate", F::Vehicle, SPECIFIC),
    ("vin", F::Vehicle, SPECIFIC),
    ("mileage", F::Vehicle, SPECIFIC),
    ("fuel", F::Vehicle, SPECIFIC),
    ("make", F::Vehicle, SPECIFIC),
    ("transmission", F::Vehicle, SPECIFIC),
    // Common words of forms in German and French (names without accents,
    // as property names spell them).
    ("vorname", F::Personal, SPECIFIC),
    ("nachname", F::Personal, SPECIFIC),
    ("geburtsdatum", F::Personal, SPECIFIC),
    ("prenom", F::Personal, SPECIFIC),
    ("nom", F::Personal, GENERIC),
    ("naissance", F::Personal, SPECIFIC),
    ("telefon", F::Contact, GENERIC),
    ("courriel", F::Contact, SPECIFIC),
    ("strasse", F::Address, SPECIFIC),
    ("ort", F::Address, GENERIC),
    ("plz", F::Address, SPECIFIC),
    ("adresse", F::Address, GENERIC),
    ("ville", F::Address, GENERIC),
    ("kennzeichen", F::Vehicle, SPECIFIC),
    ("marke", F::Vehicle, SPECIFIC),
    ("modell", F::Vehicle, GENERIC),
    ("kilometerstand", F::Vehicle, SPECIFIC),
    ("fahrzeug", F::Vehicle, SPECIFIC),
    ("vehicule", F::Vehicle, SPECIFIC),
    ("termin", F::When, SPECIFIC),
    ("wunschtermin", F::When, SPECIFIC),
    ("uhrzeit", F::When, GENERIC),
    ("datum", F::When, GENERIC),
    ("heure", F::When, GENERIC),
    ("jour", F::When, GENERIC),
    ("debut", F::When, GENERIC),
    ("cour", F::Education, SPECIFIC),
    ("niveau", F::Education, GENERIC),
    ("langue", F::Preferences, GENERIC),
    ("sprache", F::Preferences, GENERIC),
    // Common words of forms in Spanish and Portuguese (the other
    // languages forms are shown in), spelt without accents.
    ("nombre", F::Personal, GENERIC),
    ("apellido", F::Personal, SPECIFIC),
    ("nome", F::Personal, GENERIC),
    ("sobrenome", F::Personal, SPECIFIC),
    ("nacimiento", F::Personal, SPECIFIC),
    ("nascimento", F::Personal, SPECIFIC),
    ("correo", F::Contact, SPECIFIC),
    ("telefono", F::Contact, GENERIC),
    ("telefone", F::Contact, GENERIC),
    ("celular", F::Contact, GENERIC),
    ("direccion", F::Address, GENERIC),
    ("domicilio", F::Address, GENERIC),
    ("endereco", F::Address, GENERIC),
    ("morada", F::Address, GENERIC),
    ("calle", F::Address, SPECIFIC),
    ("rua", F::Address, SPECIFIC),
    ("ciudad", F::Address, GENERIC),
    ("cidade", F::Address, GENERIC),
    ("pais", F::Address, GENERIC),
    ("fecha", F::When, GENERIC),
    ("hora", F::When, GENERIC),
    ("pago", F::Payment, SPECIFIC),
    ("pagamento", F::Payment, SPECIFIC),
    ("importe", F::Money, GENERIC),
    ("precio", F::Money, GENERIC),
    ("preco", F::Money, GENERIC),
    ("entrega", F::Delivery, SPECIFIC),
    ("envio", F::Delivery, SPECIFIC),
    // Preferences.
    ("language", F::Preferences, GENERIC),
    ("theme", F::Preferences, GENERIC),
    ("locale", F::Preferences, GENERIC),
    ("dietary", F::Preferences, SPECIFIC),
    ("diet", F::Preferences, SPECIFIC),
    ("meal", F::Preferences, GENERIC),
    ("tshirt", F::Preferences, SPECIFIC),
    ("font", F::Editing, GENERIC),
    ("tab", F::Editing, GENERIC),
    ("indent", F::Editing, SPECIFIC),
    ("indentation", F::Editing, SPECIFIC),
    ("wrap", F::Editing, GENERIC),
    ("spellcheck", F::Editing, SPECIFIC),
    ("minimap", F::Display, SPECIFIC),
    ("linenumber", F::Display, COMPOUND),
    ("zoom", F::Display, GENERIC),
    ("density", F::Display, GENERIC),
    ("save", F::Saving, GENERIC),
    ("autosave", F::Saving, SPECIFIC),
    ("backup", F::Saving, SPECIFIC),
    ("sync", F::Saving, GENERIC),
    ("preference", F::Preferences, GENERIC),
    ("format", F::Preferences, GENERIC),
    ("accessibility", F::Preferences, GENERIC),
    ("unit", F::Preferences, GENERIC),
    ("display", F::Preferences, GENERIC),
    // Channels and notifications.
    ("notification", F::Notifications, SPECIFIC),
    ("notify", F::Notifications, SPECIFIC),
    ("sms", F::Notifications, SPECIFIC),
    ("push", F::Notifications, SPECIFIC),
    ("newsletter", F::Notifications, SPECIFIC),
    ("marketing", F::Notifications, SPECIFIC),
    ("reminder", F::Notifications, SPECIFIC),
    ("digest", F::Notifications, SPECIFIC),
    ("subscribe", F::Notifications, SPECIFIC),
    ("update", F::Notifications, GENERIC),
    ("alert", F::Notifications, GENERIC),
    // Security.
    ("password", F::Security, SPECIFIC),
    ("pin", F::Security, SPECIFIC),
    ("mfa", F::Security, SPECIFIC),
    ("otp", F::Security, SPECIFIC),
    ("passcode", F::Security, SPECIFIC),
    ("secret", F::Security, SPECIFIC),
    ("security", F::Security, GENERIC),
    ("recovery", F::Security, GENERIC),
    // Accounts.
    ("username", F::Account, SPECIFIC),
    ("login", F::Account, SPECIFIC),
    ("account", F::Account, GENERIC),
    ("displayname", F::Account, COMPOUND),
    ("avatar", F::Account, SPECIFIC),
    ("profile", F::Account, GENERIC),
    ("handle", F::Account, GENERIC),
    ("plan", F::Account, GENERIC),
    ("seat", F::Account, GENERIC),
    // Documents.
    ("document", F::Documents, SPECIFIC),
    ("passport", F::Documents, SPECIFIC),
    ("file", F::Documents, GENERIC),
    ("upload", F::Documents, GENERIC),
    ("attachment", F::Documents, SPECIFIC),
    ("licence", F::Documents, GENERIC),
    ("license", F::Documents, GENERIC),
    ("certificate", F::Documents, SPECIFIC),
    ("coverletter", F::Documents, COMPOUND),
    ("resume", F::Documents, SPECIFIC),
    ("cv", F::Documents, SPECIFIC),
    ("visa", F::Documents, SPECIFIC),
    // Devices and networks.
    ("device", F::Device, SPECIFIC),
    ("firmware", F::Device, SPECIFIC),
    ("serial", F::Device, GENERIC),
    ("os", F::Device, SPECIFIC),
    ("platform", F::Device, GENERIC),
    ("version", F::Device, GENERIC),
    ("model", F::Device, GENERIC),
    ("app", F::Device, GENERIC),
    ("browser", F::Device, SPECIFIC),
    ("sensor", F::Device, SPECIFIC),
    ("tracker", F::Device, SPECIFIC),
    ("metric", F::Device, GENERIC),
    ("screen", F::Device, SPECIFIC),
    ("brightness", F::Device, GENERIC),
    ("ip", F::Network, SPECIFIC),
    ("wifi", F::Network, SPECIFIC),
    ("ssid", F::Network, SPECIFIC),
    ("dns", F::Network, SPECIFIC),
    ("gateway", F::Network, SPECIFIC),
    ("subnet", F::Network, SPECIFIC),
    ("mask", F::Network, GENERIC),
    ("proxy", F::Network, SPECIFIC),
    ("port", F::Network, GENERIC),
    ("host", F::Network, GENERIC),
    ("hostname", F::Network, SPECIFIC),
    ("dhcp", F::Network, SPECIFIC),
    ("vlan", F::Network, SPECIFIC),
    ("network", F::Network, SPECIFIC),
    ("wifipassword", F::Network, COMPOUND),
    ("autoupdate", F::Device, COMPOUND),
    // Health.
    ("allergy", F::Health, SPECIFIC),
    ("allergie", F::Health, SPECIFIC),
    ("medication", F::Health, SPECIFIC),
    ("symptom", F::Health, SPECIFIC),
    ("diagnosis", F::Health, SPECIFIC),
    ("medical", F::Health, SPECIFIC),
    ("injury", F::Health, SPECIFIC),
    ("injurie", F::Health, SPECIFIC),
    ("blood", F::Health, SPECIFIC),
    ("systolic", F::Health, SPECIFIC),
    ("diastolic", F::Health, SPECIFIC),
    ("pulse", F::Health, SPECIFIC),
    ("visit", F::Health, GENERIC),
    ("clinician", F::Health, SPECIFIC),
    ("doctor", F::Health, SPECIFIC),
    ("activity", F::Health, GENERIC),
    ("fitness", F::Health, SPECIFIC),
    ("urgent", F::Health, GENERIC),
    ("dose", F::Health, SPECIFIC),
    ("dosage", F::Health, SPECIFIC),
    ("pill", F::Health, SPECIFIC),
    ("tablet", F::Health, GENERIC),
    ("prescription", F::Health, SPECIFIC),
    ("pharmacy", F::Health, SPECIFIC),
    ("medicine", F::Health, SPECIFIC),
    ("feeding", F::Health, GENERIC),
    ("care", F::Health, GENERIC),
    ("vaccination", F::Health, SPECIFIC),
    // Pets.
    ("pet", F::Pet, SPECIFIC),
    ("specie", F::Pet, SPECIFIC),
    ("breed", F::Pet, SPECIFIC),
    ("animal", F::Pet, SPECIFIC),
    ("insurance", F::Insurance, SPECIFIC),
    ("policy", F::Insurance, GENERIC),
    ("insurer", F::Insurance, SPECIFIC),
    ("cover", F::Insurance, SPECIFIC),
    ("coverage", F::Insurance, SPECIFIC),
    // Feedback.
    ("rating", F::Feedback, SPECIFIC),
    ("nps", F::Feedback, SPECIFIC),
    ("comment", F::Feedback, GENERIC),
    ("feedback", F::Feedback, SPECIFIC),
    ("satisfaction", F::Feedback, SPECIFIC),
    ("review", F::Feedback, GENERIC),
    ("recommend", F::Feedback, SPECIFIC),
    ("improve", F::Feedback, GENERIC),
    ("experience", F::Feedback, GENERIC),
    ("resolved", F::Feedback, GENERIC),
    ("survey", F::Feedback, SPECIFIC),
    ("objective", F::Feedback, GENERIC),
    ("strength", F::Feedback, GENERIC),
    ("achievement", F::Feedback, GENERIC),
    ("competency", F::Feedback, GENERIC),
    // Consent.
    ("term", F::Consent, GENERIC),
    ("consent", F::Consent, SPECIFIC),
    ("agree", F::Consent, SPECIFIC),
    ("accept", F::Consent, SPECIFIC),
    ("privacy", F::Consent, SPECIFIC),
    ("gdpr", F::Consent, SPECIFIC),
    ("opt", F::Consent, GENERIC),
    ("optin", F::Consent, COMPOUND),
    ("emergency", F::Emergency, SPECIFIC),
    ("kin", F::Emergency, SPECIFIC),
    ("relationship", F::Emergency, GENERIC),
    // Shipping.
    ("shipping", F::Delivery, SPECIFIC),
    ("delivery", F::Delivery, SPECIFIC),
    ("courier", F::Delivery, SPECIFIC),
    ("carrier", F::Delivery, GENERIC),
    ("tracking", F::Delivery, SPECIFIC),
    ("parcel", F::Delivery, SPECIFIC),
    ("shipment", F::Delivery, SPECIFIC),
    ("package", F::Delivery, GENERIC),
    ("pickup", F::Trip, SPECIFIC),
    ("dropoff", F::Trip, SPECIFIC),
    ("rental", F::Trip, GENERIC),
    ("order", F::Order, SPECIFIC),
    ("refund", F::Order, SPECIFIC),
    ("receipt", F::Order, SPECIFIC),
    ("course", F::Education, SPECIFIC),
    ("module", F::Education, GENERIC),
    ("lecture", F::Education, SPECIFIC),
    ("lecturer", F::Education, SPECIFIC),
    ("instructor", F::Education, SPECIFIC),
    ("teacher", F::Education, SPECIFIC),
    ("tutor", F::Education, SPECIFIC),
    ("school", F::Education, SPECIFIC),
    ("university", F::Education, SPECIFIC),
    ("college", F::Education, SPECIFIC),
    ("degree", F::Education, SPECIFIC),
    ("semester", F::Education, SPECIFIC),
    ("exam", F::Education, SPECIFIC),
    ("assignment", F::Education, GENERIC),
    ("grade", F::Education, GENERIC),
    ("enrolment", F::Education, SPECIFIC),
    ("enrollment", F::Education, SPECIFIC),
    ("light", F::Lighting, SPECIFIC),
    ("lamp", F::Lighting, SPECIFIC),
    ("bulb", F::Lighting, SPECIFIC),
    ("dimmer", F::Lighting, SPECIFIC),
    ("scene", F::Lighting, GENERIC),
    ("colour", F::Lighting, GENERIC),
    ("color", F::Lighting, GENERIC),
    ("recipient", F::Recipient, SPECIFIC),
    ("giftee", F::Recipient, SPECIFIC),
    ("gift", F::Product, GENERIC),
    ("width", F::Size, GENERIC),
    ("height", F::Size, GENERIC),
    ("length", F::Size, GENERIC),
    ("depth", F::Size, GENERIC),
    ("weight", F::Size, GENERIC),
    ("dimension", F::Size, SPECIFIC),
    // Products and issues.
    ("product", F::Product, SPECIFIC),
    ("sku", F::Product, SPECIFIC),
    ("brand", F::Product, GENERIC),
    ("condition", F::Product, GENERIC),
    ("category", F::Product, GENERIC),
    ("item", F::Product, GENERIC),
    ("retailer", F::Product, GENERIC),
    ("purchase", F::Product, GENERIC),
    ("subject", F::Issue, GENERIC),
    ("problem", F::Issue, SPECIFIC),
    ("bug", F::Issue, SPECIFIC),
    ("severity", F::Issue, GENERIC),
    ("priority", F::Issue, GENERIC),
    ("reproduce", F::Issue, SPECIFIC),
    ("expected", F::Issue, GENERIC),
    ("actual", F::Issue, GENERIC),
    ("error", F::Issue, GENERIC),
    ("fault", F::Issue, SPECIFIC),
    ("defect", F::Issue, SPECIFIC),
    // Events.
    ("ticket", F::Event, GENERIC),
    ("workshop", F::Event, SPECIFIC),
    ("session", F::Event, GENERIC),
    ("event", F::Event, SPECIFIC),
    ("attending", F::Event, SPECIFIC),
    ("rsvp", F::Event, SPECIFIC),
    ("attendee", F::Event, GENERIC),
    ("venue", F::Event, SPECIFIC),
    ("song", F::Event, GENERIC),
    ("plus", F::Event, GENERIC),
    // Search filters.
    ("query", F::Search, SPECIFIC),
    ("keyword", F::Search, SPECIFIC),
    ("search", F::Search, SPECIFIC),
    ("sort", F::Search, GENERIC),
    ("filter", F::Search, SPECIFIC),
    // Decisions.
    ("decision", F::Decision, SPECIFIC),
    ("approve", F::Decision, SPECIFIC),
    ("reject", F::Decision, SPECIFIC),
    ("justification", F::Decision, SPECIFIC),
    ("approval", F::Decision, SPECIFIC),
    // Devices in the home and at work.
    ("temp", F::Climate, SPECIFIC),
    ("temperature", F::Climate, SPECIFIC),
    ("thermostat", F::Climate, SPECIFIC),
    ("fan", F::Climate, SPECIFIC),
    ("humidity", F::Climate, SPECIFIC),
    ("heating", F::Climate, SPECIFIC),
    ("recording", F::Recording, SPECIFIC),
    ("motion", F::Recording, SPECIFIC),
    ("sensitivity", F::Recording, GENERIC),
    ("camera", F::Recording, GENERIC),
    ("video", F::Recording, SPECIFIC),
    ("resolution", F::Recording, GENERIC),
    ("threshold", F::Alert, SPECIFIC),
    ("trigger", F::Alert, SPECIFIC),
    // Homes and property.
    ("property", F::Property, SPECIFIC),
    ("freehold", F::Property, SPECIFIC),
    ("leasehold", F::Property, SPECIFIC),
    ("furnished", F::Property, SPECIFIC),
    ("garden", F::Property, GENERIC),
    ("floorarea", F::Property, COMPOUND),
    // More of health care.
    ("specialty", F::Health, SPECIFIC),
    ("speciality", F::Health, SPECIFIC),
    ("hospital", F::Health, SPECIFIC),
    ("clinic", F::Health, SPECIFIC),
    ("nurse", F::Health, SPECIFIC),
    ("pregnancy", F::Health, SPECIFIC),
    ("smoker", F::Health, SPECIFIC),
    ("alcohol", F::Health, SPECIFIC),
    ("glucose", F::Health, SPECIFIC),
    ("heart", F::Health, SPECIFIC),
    ("vaccine", F::Health, SPECIFIC),
    // More of work and people.
    ("onboarding", F::Employment, SPECIFIC),
    ("offboarding", F::Employment, SPECIFIC),
    ("probation", F::Employment, SPECIFIC),
    ("resignation", F::Employment, SPECIFIC),
    ("rehire", F::Employment, SPECIFIC),
    ("recruiter", F::Employment, SPECIFIC),
    ("payroll", F::Compensation, SPECIFIC),
    // More of schools and courses.
    ("timetable", F::Education, SPECIFIC),
    ("classroom", F::Education, SPECIFIC),
    ("curriculum", F::Education, SPECIFIC),
    ("syllabus", F::Education, SPECIFIC),
    ("grading", F::Education, GENERIC),
    ("homework", F::Education, SPECIFIC),
    ("enrol", F::Education, SPECIFIC),
    ("enroll", F::Education, SPECIFIC),
    ("student", F::Education, GENERIC),
    ("pupil", F::Education, GENERIC),
    ("tuition", F::Education, SPECIFIC),
    ("campus", F::Education, SPECIFIC),
    ("graduation", F::Education, SPECIFIC),
    ("gpa", F::Education, SPECIFIC),
    // More of devices and networks.
    ("plug", F::Device, SPECIFIC),
    ("socket", F::Device, GENERIC),
    ("battery", F::Device, SPECIFIC),
    ("watt", F::Device, GENERIC),
    ("voltage", F::Device, SPECIFIC),
    ("laptop", F::Device, SPECIFIC),
    ("router", F::Network, SPECIFIC),
    ("bluetooth", F::Network, SPECIFIC),
    ("zigbee", F::Network, SPECIFIC),
    ("mqtt", F::Network, SPECIFIC),
    ("ethernet", F::Network, SPECIFIC),
    ("bandwidth", F::Network, SPECIFIC),
    // More of insurance, money and shipping.
    ("deductible", F::Insurance, SPECIFIC),
    ("insured", F::Insurance, SPECIFIC),
    ("rent", F::Money, GENERIC),
    ("mortgage", F::Money, SPECIFIC),
    ("revenue", F::Money, GENERIC),
    ("turnover", F::Money, GENERIC),
    ("freight", F::Delivery, SPECIFIC),
    ("consignment", F::Delivery, SPECIFIC),
    ("waybill", F::Delivery, SPECIFIC),
    ("dispatch", F::Delivery, SPECIFIC),
    // More ways to reach and name a person, and to sign in.
    ("whatsapp", F::Contact, SPECIFIC),
    ("twitter", F::Contact, SPECIFIC),
    ("skype", F::Contact, SPECIFIC),
    ("ssn", F::Personal, SPECIFIC),
    ("marital", F::Personal, SPECIFIC),
    ("citizenship", F::Personal, SPECIFIC),
    ("ethnicity", F::Personal, SPECIFIC),
    ("twofactor", F::Security, COMPOUND),
    ("encryption", F::Security, SPECIFIC),
    ("apikey", F::Security, COMPOUND),
    // More of events, feedback, vehicles and time.
    ("conference", F::Event, SPECIFIC),
    ("catering", F::Event, SPECIFIC),
    ("odometer", F::Vehicle, SPECIFIC),
    ("calendar", F::When, SPECIFIC),
];

/// [`WORDS`] sorted by word, built on first use.
fn index() -> &'static [(&'static str, Family, u8)] {
    static INDEX: OnceLock<Vec<(&'static str, Family, u8)>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut sorted = WORDS.to_vec();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        sorted
    })
}

fn lookup(word: &str) -> Option<(Family, u8)> {
    let index = index();
    index
        .binary_search_by(|(w, _, _)| (*w).cmp(word))
        .ok()
        .map(|i| (index[i].1, index[i].2))
}

/// The family a field belongs to, from its property name, else its title:
/// the heaviest word wins, the last of equals, since a compound's last word
/// says what it is (`date_format` is a format, `start_date` a date,
/// `wifi_password` a password).
pub(crate) fn family_of(name: &str, title: &str) -> Option<Family> {
    best(&words(name)).or_else(|| best(&words(title)))
}

/// Words before `name` that make it a person's name (`guest_name`); after
/// any other word `name` names a thing (`task_name`, `fence_name`) and says
/// nothing of the field's family.
const PERSON_WORDS: [&str; 27] = [
    "guest",
    "payee",
    "customer",
    "patient",
    "traveller",
    "traveler",
    "passenger",
    "attendee",
    "organiser",
    "organizer",
    "owner",
    "holder",
    "member",
    "user",
    "recipient",
    "sender",
    "beneficiary",
    "applicant",
    "candidate",
    "student",
    "parent",
    "spouse",
    "partner",
    "person",
    "legal",
    "nick",
    "maiden",
];

/// Whether the word at `at` is `name` naming a thing, not a person.
fn names_a_thing(singles: &[&str], at: usize) -> bool {
    singles[at] == "name"
        && at > 0
        && !PERSON_WORDS.contains(&singles[at - 1])
        && lookup(singles[at - 1]).is_none()
}

fn best(words: &[String]) -> Option<Family> {
    let singles: Vec<&str> = words.iter().map(|w| singular(w)).collect();
    let joined = singles
        .windows(2)
        .map(|pair| format!("{}{}", pair[0], pair[1]));
    let mut found: Option<(Family, u8)> = None;
    let candidates = singles
        .iter()
        .enumerate()
        .map(|(at, w)| lookup(w).filter(|_| !names_a_thing(&singles, at)))
        .chain(joined.map(|w| lookup(singular(&w))));
    for (family, weight) in candidates.flatten() {
        if found.is_none_or(|(_, best)| weight >= best) {
            found = Some((family, weight));
        }
    }
    found.map(|(family, _)| family)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_is_listed_once_in_singular_form() {
        let mut seen = std::collections::BTreeSet::new();
        for (word, _, _) in WORDS {
            assert!(seen.insert(*word), "{word} is listed twice");
            assert_eq!(singular(word), *word, "{word} is a plural");
        }
    }

    #[test]
    fn every_family_has_an_id_that_reads_back() {
        for family in Family::ALL {
            assert_eq!(Family::from_id(family.id()), Some(*family));
            assert!(family.name(6).chars().count() > 0);
        }
    }

    #[test]
    fn common_words_of_more_domains_find_their_family() {
        let of = |name: &str| family_of(name, "");
        assert_eq!(of("property_type"), Some(Family::Property));
        assert_eq!(of("property_address"), Some(Family::Property));
        assert_eq!(of("floor_area_sqm"), Some(Family::Property));
        assert_eq!(of("eligibleForRehire"), Some(Family::Employment));
        assert_eq!(of("overloadLimitWatts"), Some(Family::Device));
        assert_eq!(of("batteryLevel"), Some(Family::Device));
        assert_eq!(of("router_model"), Some(Family::Network));
        assert_eq!(of("annual_deductible"), Some(Family::Insurance));
        assert_eq!(of("monthly_rent"), Some(Family::Money));
        assert_eq!(of("marital_status"), Some(Family::Personal));
        assert_eq!(of("allow_self_enrol"), Some(Family::Education));
        assert_eq!(of("returnLaptop"), Some(Family::Device));
        assert_eq!(of("student_name"), Some(Family::Personal));
        assert_eq!(of("cabinClass"), Some(Family::Travellers));
        assert_eq!(of("staff_courtesy"), None, "staff is too broad a word");
        // Words that name other things in other domains are left out.
        assert_eq!(of("referral_code"), None);
        assert_eq!(of("is_premium"), None);
        assert_eq!(of("tenure_years"), None);
    }

    #[test]
    fn names_and_titles_find_their_family() {
        let of = |name: &str| family_of(name, "");
        assert_eq!(of("emergency_contact_phone"), Some(Family::Emergency));
        assert_eq!(of("sortCode"), Some(Family::Bank));
        assert_eq!(of("account-number"), Some(Family::Bank));
        assert_eq!(of("linkedin_url"), Some(Family::Contact));
        assert_eq!(of("check_in"), Some(Family::Stay));
        assert_eq!(of("departDate"), Some(Family::Trip));
        assert_eq!(of("adults"), Some(Family::Travellers));
        assert_eq!(of("first_name"), Some(Family::Personal));
        assert_eq!(of("wifi_ssid"), Some(Family::Network));
        assert_eq!(of("date_format"), Some(Family::Preferences));
        assert_eq!(of("start_date"), Some(Family::When));
        assert_eq!(family_of("f1", "Allergies"), Some(Family::Health));
        assert_eq!(of("guest_name"), Some(Family::Personal));
        assert_eq!(of("name"), Some(Family::Personal));
        assert_eq!(of("task_name"), None, "a thing's name is no person's");
        assert_eq!(of("approved_amount"), Some(Family::Money));
        assert_eq!(of("center_latitude"), Some(Family::Location));
        assert_eq!(of("fault_category"), Some(Family::Issue));
        assert_eq!(of("course_code"), Some(Family::Education));
        assert_eq!(of("refund_reason"), Some(Family::Order));
        assert_eq!(of("light_colour"), Some(Family::Lighting));
        assert_eq!(of("recipient_email"), Some(Family::Recipient));
        assert_eq!(of("pickup_location"), Some(Family::Trip));
        assert_eq!(of("dose_mg"), Some(Family::Health));
        assert_eq!(of("interview_slot"), Some(Family::Employment));
        assert_eq!(of("lineNumbers"), Some(Family::Display));
        assert_eq!(of("autoSaveDelayMs"), Some(Family::Saving));
        assert_eq!(of("salaryMax"), Some(Family::Compensation));
        assert_eq!(of("salary_currency"), Some(Family::Compensation));
        assert_eq!(of("payPeriod"), Some(Family::Compensation));
        assert_eq!(of("monthlyIncome"), Some(Family::Money));
        assert_eq!(of("pet_name"), Some(Family::Pet));
        assert_eq!(of("breed"), Some(Family::Pet));
        assert_eq!(of("wifiPassword"), Some(Family::Network));
        assert_eq!(of("kennzeichen"), Some(Family::Vehicle));
        assert_eq!(of("vorname"), Some(Family::Personal));
        assert_eq!(of("date_naissance"), Some(Family::Personal));
        assert_eq!(of("passport_expiry"), Some(Family::Documents));
        assert_eq!(of("card_expiry"), Some(Family::Payment));
        assert_eq!(of("apellidos"), Some(Family::Personal));
        assert_eq!(of("correo_electronico"), Some(Family::Contact));
        assert_eq!(of("ciudad"), Some(Family::Address));
        assert_eq!(of("endereco"), Some(Family::Address));
        assert_eq!(of("fecha_entrega"), Some(Family::Delivery));
        assert_eq!(of("x"), None);
        assert_eq!(of("名前"), None);
    }
}
