package literature

// wantCites were checked by hand, string by string, against the manuals:
// APA 7 (§9.8 up to 20 authors, 21+ as the first 19, ". . .", the last;
// §10.1 journal "Journal, vol(issue), pages"; §10.3 chapter "In Book
// (pp. x–y). Publisher."; §10.8 preprint "(arXiv:id). arXiv. DOI"),
// MLA 9 (3+ authors "First, Given, et al."; container elements by commas;
// inclusive page numbers shortened, 436–44; a DOI as https://doi.org/...,
// other URLs without the protocol; a posting dated to the day),
// GB/T 7714-2015 (up to three authors, then ", et al" or ", 等";
// family names in capitals with spaced initials without points, DES MARAIS
// D J; [J] [C] [M] [EB/OL]; "Journal, Year, Vol(Issue): pages";
// "[M]//Book. Publisher, Year: pages"; "(updated)[accessed]. URL"),
// and BibTeX (key author+year+first word, "--" ranges, protected titles).
var wantCites = map[string]string{
	"book/apa":                     "Goodfellow, I., Bengio, Y., & Courville, A. (2016). Deep Learning. MIT Press.",
	"book/mla":                     "Goodfellow, Ian, et al. Deep Learning. MIT Press, 2016.",
	"book/gbt7714":                 "GOODFELLOW I, BENGIO Y, COURVILLE A. Deep Learning[M]. MIT Press, 2016.",
	"book/bibtex":                  "@book{goodfellow2016deep,\n  author = {Goodfellow, Ian and Bengio, Yoshua and Courville, Aaron},\n  title = {{Deep Learning}},\n  year = {2016},\n  publisher = {MIT Press}\n}",
	"chapter/apa":                  "Bengio, Y. (2012). Practical Recommendations for Gradient-Based Training of Deep Architectures. In Neural Networks: Tricks of the Trade (pp. 437–478). Springer. https://doi.org/10.1007/978-3-642-35289-8_26",
	"chapter/mla":                  "Bengio, Yoshua. “Practical Recommendations for Gradient-Based Training of Deep Architectures.” Neural Networks: Tricks of the Trade, Springer, 2012, pp. 437–78, https://doi.org/10.1007/978-3-642-35289-8_26.",
	"chapter/gbt7714":              "BENGIO Y. Practical Recommendations for Gradient-Based Training of Deep Architectures[M]//Neural Networks: Tricks of the Trade. Springer, 2012: 437-478. DOI:10.1007/978-3-642-35289-8_26.",
	"chapter/bibtex":               "@incollection{bengio2012practical,\n  author = {Bengio, Yoshua},\n  title = {{Practical Recommendations for Gradient-Based Training of Deep Architectures}},\n  booktitle = {Neural Networks: Tricks of the Trade},\n  year = {2012},\n  pages = {437--478},\n  publisher = {Springer},\n  doi = {10.1007/978-3-642-35289-8_26}\n}",
	"chinese/apa":                  "王晓明, 李华, 张伟, & 刘洋. (2019). 基于深度学习的中文分词方法研究. 中文信息学报, 33(5), 1–10. https://doi.org/10.3969/j.issn.1003-0077.2019.05.001",
	"chinese/mla":                  "王晓明, et al. “基于深度学习的中文分词方法研究.” 中文信息学报, vol. 33, no. 5, 2019, pp. 1–10, https://doi.org/10.3969/j.issn.1003-0077.2019.05.001.",
	"chinese/gbt7714":              "王晓明, 李华, 张伟, 等. 基于深度学习的中文分词方法研究[J]. 中文信息学报, 2019, 33(5): 1-10. DOI:10.3969/j.issn.1003-0077.2019.05.001.",
	"chinese/bibtex":               "@article{anon2019,\n  author = {{王晓明} and {李华} and {张伟} and {刘洋}},\n  title = {{基于深度学习的中文分词方法研究}},\n  journal = {中文信息学报},\n  year = {2019},\n  volume = {33},\n  number = {5},\n  pages = {1--10},\n  doi = {10.3969/j.issn.1003-0077.2019.05.001},\n  language = {Chinese}\n}",
	"conference/apa":               "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, Ł., & Polosukhin, I. (2017). Attention is All you Need. In Advances in Neural Information Processing Systems 30 (pp. 5998–6008). Curran Associates. https://papers.nips.cc/paper/7181-attention-is-all-you-need",
	"conference/mla":               "Vaswani, Ashish, et al. “Attention is All you Need.” Advances in Neural Information Processing Systems 30, Curran Associates, 2017, pp. 5998–6008, papers.nips.cc/paper/7181-attention-is-all-you-need.",
	"conference/gbt7714":           "VASWANI A, SHAZEER N, PARMAR N, et al. Attention is All you Need[C]//Advances in Neural Information Processing Systems 30. Curran Associates, 2017: 5998-6008.",
	"conference/bibtex":            "@inproceedings{vaswani2017attention,\n  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob and Jones, Llion and Gomez, Aidan N. and Kaiser, Łukasz and Polosukhin, Illia},\n  title = {{Attention is All you Need}},\n  booktitle = {Advances in Neural Information Processing Systems 30},\n  year = {2017},\n  pages = {5998--6008},\n  publisher = {Curran Associates},\n  url = {https://papers.nips.cc/paper/7181-attention-is-all-you-need}\n}",
	"journal/apa":                  "LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444. https://doi.org/10.1038/nature14539",
	"journal/mla":                  "LeCun, Yann, et al. “Deep learning.” Nature, vol. 521, no. 7553, 2015, pp. 436–44, https://doi.org/10.1038/nature14539.",
	"journal/gbt7714":              "LECUN Y, BENGIO Y, HINTON G. Deep learning[J]. Nature, 2015, 521(7553): 436-444. DOI:10.1038/nature14539.",
	"journal/bibtex":               "@article{lecun2015deep,\n  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},\n  title = {{Deep learning}},\n  journal = {Nature},\n  year = {2015},\n  volume = {521},\n  number = {7553},\n  pages = {436--444},\n  doi = {10.1038/nature14539}\n}",
	"many_authors/apa":             "Abbott, A., Brooks, B., Chen, C., Dietz, D., Evans, E., Fox, F., Gupta, G., Hughes, H., Ito, I., Jung, J., Kim, K., Lopez, L., Moore, M., Nair, N., Ortiz, O., Park, P., Quade, Q., Ross, R., Sato, S., . . . Wu, W. (2024). A survey of large language models for code. ACM Computing Surveys, 56(9), 1–38. https://doi.org/10.1145/0000000.0000001",
	"many_authors/mla":             "Abbott, Ada, et al. “A survey of large language models for code.” ACM Computing Surveys, vol. 56, no. 9, 2024, pp. 1–38, https://doi.org/10.1145/0000000.0000001.",
	"many_authors/gbt7714":         "ABBOTT A, BROOKS B, CHEN C, et al. A survey of large language models for code[J]. ACM Computing Surveys, 2024, 56(9): 1-38. DOI:10.1145/0000000.0000001.",
	"many_authors/bibtex":          "@article{abbott2024survey,\n  author = {Abbott, Ada and Brooks, Ben and Chen, Cara and Dietz, Dan and Evans, Eva and Fox, Finn and Gupta, Gia and Hughes, Hal and Ito, Ivy and Jung, Jon and Kim, Kai and Lopez, Lea and Moore, Max and Nair, Nia and Ortiz, Oto and Park, Pia and Quade, Quin and Ross, Rae and Sato, Sam and Tran, Tia and Ueda, Uma and Vega, Vic and Wu, Wes},\n  title = {{A survey of large language models for code}},\n  journal = {ACM Computing Surveys},\n  year = {2024},\n  volume = {56},\n  number = {9},\n  pages = {1--38},\n  doi = {10.1145/0000000.0000001}\n}",
	"preprint/apa":                 "Devlin, J., Chang, M.-W., Lee, K., & Toutanova, K. (2018). BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding (arXiv:1810.04805). arXiv. https://doi.org/10.48550/arXiv.1810.04805",
	"preprint/mla":                 "Devlin, Jacob, et al. “BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding.” arXiv, 11 Oct. 2018, https://doi.org/10.48550/arXiv.1810.04805.",
	"preprint/gbt7714":             "DEVLIN J, CHANG M W, LEE K, et al. BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding[EB/OL]. (2018-10-11)[2024-05-01]. https://arxiv.org/abs/1810.04805. DOI:10.48550/arXiv.1810.04805.",
	"preprint/bibtex":              "@misc{devlin2018bert,\n  author = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},\n  title = {{BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding}},\n  year = {2018},\n  doi = {10.48550/arXiv.1810.04805},\n  eprint = {1810.04805},\n  archiveprefix = {arXiv}\n}",
	"two_authors_particle/apa":     "van der Maaten, L., & Hinton, G. (2008). Visualizing Data using t-SNE. Journal of Machine Learning Research, 9(86), 2579–2605.",
	"two_authors_particle/mla":     "van der Maaten, Laurens, and Geoffrey Hinton. “Visualizing Data using t-SNE.” Journal of Machine Learning Research, vol. 9, no. 86, 2008, pp. 2579–605.",
	"two_authors_particle/gbt7714": "VAN DER MAATEN L, HINTON G. Visualizing Data using t-SNE[J]. Journal of Machine Learning Research, 2008, 9(86): 2579-2605.",
	"two_authors_particle/bibtex":  "@article{vandermaaten2008visualizing,\n  author = {van der Maaten, Laurens and Hinton, Geoffrey},\n  title = {{Visualizing Data using t-SNE}},\n  journal = {Journal of Machine Learning Research},\n  year = {2008},\n  volume = {9},\n  number = {86},\n  pages = {2579--2605}\n}",
}
