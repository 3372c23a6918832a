package detectortest

// The suite's documents were written for this package. They are unrelated
// news stories on different topics, in English and Turkish, long enough for
// every published detector to index them.

var articles = []string{
	// 0: storm
	`Heavy rain and winds of up to 120 kilometres an hour swept across the northern coast on Tuesday, cutting power to more than forty thousand homes and closing the main harbour for the second time this month.
Emergency crews worked through the night to clear fallen trees from the coastal highway, which remained shut between the two largest fishing towns. The regional weather office said the storm would weaken slowly as it moved inland but warned of flooding along the river valleys until Thursday.
Schools in three districts stayed closed, and the ferry operator cancelled every crossing to the islands. A spokeswoman for the electricity company said engineers expected to restore supply to most customers within two days, although isolated farms could wait longer.
Farmers reported damage to greenhouses and orchards, and the agriculture ministry promised an assessment of losses by the end of the week.`,
	// 1: central bank
	`The central bank raised its benchmark interest rate by half a percentage point on Wednesday, the fourth increase this year, as policymakers tried to cool inflation that has stayed above eight percent since the spring.
Governor Elena Marsh told reporters that price pressures had spread from energy and food to rents and services, and that the bank was prepared to tighten further if wage growth did not slow. Markets had expected a smaller move, and the currency strengthened sharply against the dollar after the announcement.
Business groups warned that higher borrowing costs would hurt small manufacturers already struggling with expensive raw materials. Mortgage lenders said monthly repayments on a typical variable loan would rise by about forty euros.
The next policy meeting is scheduled for early December, when the bank will also publish revised growth forecasts.`,
	// 2: football
	`A late header from the veteran defender gave the visitors a two to one win in Saturday's cup semi-final, ending the home side's unbeaten run of fourteen matches in front of a sold-out stadium.
The hosts had taken the lead after twenty minutes when their young winger curled a free kick over the wall, but the visitors levelled before half-time through a penalty awarded for handball. Both goalkeepers made several fine saves in a tense second half played in driving rain.
With three minutes left, the captain rose above the crowd at a corner and headed into the far corner of the net, sending the travelling supporters into celebration. The home coach complained afterwards that the referee had ignored a foul in the build-up.
The winners will meet the league champions in the final next month, the club's first final appearance in eleven years.`,
	// 3: archaeology
	`Archaeologists excavating a hillside near the old caravan route have uncovered the remains of a Bronze Age workshop where copper was smelted and cast into tools more than three thousand years ago.
The team found clay crucibles, fragments of stone moulds for axes and chisels, and a furnace lined with burnt brick, all preserved beneath a layer of collapsed mud walls. Radiocarbon dates from charcoal in the furnace place its last use around 1300 before the common era.
The project director said the discovery showed that metalworking in the valley was organised on a larger scale than scholars had believed, with ore apparently carried from mines in the mountains to the north. Analysis of slag samples should reveal where the copper came from.
The finds will be conserved at the provincial museum, and the excavation will resume next summer with funding from the national research council.`,
	// 4: Turkish, municipal water
	`Belediye, kentin doğu ilçelerinde yaşanan su kesintilerinin önümüzdeki hafta sona ereceğini açıkladı. Kesintiler, ana isale hattında meydana gelen arıza nedeniyle üç gündür sürüyordu.
Su ve kanalizasyon idaresinden yapılan açıklamada, ekiplerin gece gündüz çalışarak hasarlı boruları değiştirdiği ve yeni bir pompa istasyonunun devreye alınacağı belirtildi. Mahalle sakinleri ise tankerlerle dağıtılan suyun yetersiz kaldığını, özellikle yaşlıların zor durumda olduğunu söyledi.
Muhalefet partisi meclis üyeleri, altyapının yıllardır yenilenmediğini öne sürerek konunun belediye meclisinde görüşülmesini istedi. Belediye başkanı ise yatırım programına yüz kilometrelik yeni hat eklendiğini hatırlattı.
Yetkililer, vatandaşlardan kesinti süresince suyu dikkatli kullanmalarını ve depolarını temiz tutmalarını istedi.`,
	// 5: Turkish, olive harvest
	`Ege kıyısındaki zeytin üreticileri, bu yılki hasadın kuraklık nedeniyle geçen yıla göre yüzde otuz daha az olmasını bekliyor. Üretici birliği, yağışların mevsim normallerinin çok altında kaldığını bildirdi.
Köylerde ağaçlardan toplanan zeytinlerin daha küçük olduğu, yağ oranının ise düştüğü gözlendi. Bazı üreticiler, sulama için kuyu açtırmak zorunda kaldıklarını ve maliyetlerin iki katına çıktığını anlattı.
Ziraat odası başkanı, devletin destek ödemelerini artırması gerektiğini, aksi halde küçük işletmelerin bahçelerini satmak zorunda kalacağını söyledi. Tüccarlar ise zeytinyağı fiyatlarının yükselmesinin kaçınılmaz olduğunu ifade etti.
Uzmanlar, damla sulama ve kuraklığa dayanıklı çeşitlerin yaygınlaştırılması için kooperatiflerin birlikte hareket etmesini öneriyor.`,
}

// extension is new material that a longer article adds around articles[0],
// so that the longer article contains the storm report but not the reverse.
const extension = `Officials in the capital announced a review of the national flood defence programme, saying that several embankments built in the nineteen seventies no longer met modern standards.
The review will examine drainage channels, pumping stations and the warning system that alerts residents by text message, which failed in two towns during last winter's floods.
Insurance companies estimated that claims from the past twelve months had already exceeded the total of the previous five years combined. Industry representatives asked the government to share the cost of protecting homes built on flood plains.
Environmental groups welcomed the review but argued that restoring wetlands upstream would hold back water more cheaply than raising concrete walls.
Local councils were asked to submit lists of vulnerable buildings by the end of January, and the first repairs are planned for the spring.
Meanwhile the coast guard reminded boat owners to check their moorings before the next weather front arrives at the weekend.`

// noiseWords is a vocabulary of invented words used to build documents that
// share nothing with the articles (the large edge-input document).
var noiseWords = []string{
	"kavor", "tremil", "zanduf", "oplirk", "vestran", "quomel", "brisket", "jandor",
	"pelvuk", "sorrim", "taxel", "wunder", "yorbix", "flamic", "grevon", "hulsap",
	"ickmar", "jorvel", "kluster", "lomdip", "marvex", "norlip", "ostrag", "plindo",
	"quassar", "rivvel", "stomper", "trovin", "ulgard", "vimtak", "wolpex", "xandril",
}
